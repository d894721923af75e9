import JournalSync

extension HubKind {
    /// A PostgreSQL server.
    public static let postgres = HubKind(rawValue: "postgres")
}

/// PostgreSQL hubs, named by libpq's connection strings: a `postgresql://` URL, or `key=value` words.
public struct PostgresDriver: HubDriver {
    public init() {}

    public var kind: HubKind { .postgres }
    public var schemes: [String] { ["postgresql", "postgres"] }
    public var nameForm: String { "postgresql://USER@HOST/DATABASE" }

    /// The recorded URL holds this machine's role, files and perhaps its own socket.
    public func nameOnAnotherMachine(location: String) -> String? { nil }

    public func place(named name: String, isURL: Bool, access: HubAccess) throws -> any HubPlace {
        let calls: CallLimit = switch access.patience {
        case .syncing: .syncing
        case .glance: .connectTimeout
        }
        return try PostgresPlace(connectionString: name, ask: access.askPassword, callLimit: calls)
    }

    /// The key shuts the device out of what is published from now on; its role on the server is the
    /// administrator's to take away, which only SQL does.
    public func stepsAfterRevoking(deviceName: String) -> String? {
        """
        The server is its administrator's to change: if \(deviceName) connects as a role of its own \
        (README, "A role per machine"), this takes it off the server (put in its role, and the person's role \
        it holds the rights of):
          REVOKE "PERSONS_ROLE" FROM "ITS_ROLE";
          REVOKE ALL ON ALL TABLES IN SCHEMA journal_hub FROM "ITS_ROLE";
          ALTER ROLE "ITS_ROLE" NOLOGIN;
          SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'ITS_ROLE';
        """
    }
}

import JournalKit
import JournalSync
import PostgresNIO

/// A hub's place on a PostgreSQL server: the database a connection string names, holding (or to
/// hold) the schema `journal_hub`.
public struct PostgresPlace: HubPlace {
    let connector: PostgresConnector
    /// The server schema's migrations: this journal's, but for tests of a migration to come.
    let migrations: [Migration]

    /// The place a connection string names; `ask` asks for a password the files do not have (on a
    /// terminal, at `sync init`); `callLimit` bounds each call to the server.
    public init(connectionString: String, ask: (@Sendable (String) -> String?)? = nil, callLimit: CallLimit = .syncing) throws {
        try self.init(connectionString: connectionString, ask: ask, callLimit: callLimit, migrations: embeddedMigrations)
    }

    init(
        connectionString: String, ask: (@Sendable (String) -> String?)? = nil, callLimit: CallLimit = .syncing, migrations: [Migration]
    ) throws {
        connector = PostgresConnector(location: try PostgresLocation.parse(connectionString), ask: ask, callLimit: callLimit)
        self.migrations = migrations
    }

    var latestVersion: Int64 { migrations.last?.version ?? 0 }

    public var kind: HubKind { .postgres }
    /// TCP and TLS, DNS; even a Unix socket is a socket the unit's sandbox must allow.
    public var needsNetwork: Bool { true }
    public var location: String { connector.location.uri }
    /// Who shares a server's hub is for the server's rights to say.
    public var canBeSharedByGroup: Bool { false }
    /// A database is made by its server's administrator, never by `sync init`.
    public func missingParent() -> String? { nil }
    var server: PostgresLocation { connector.location }

    public func hubExists() async throws -> Bool {
        try await withLink { link in
            try await link.run { connection in
                let presence = try await ServerSchema.presence(connection)
                if presence.exists && !presence.usable {
                    throw PostgresHubError.missingRight(
                        user: server.user, right: "USAGE on the schema journal_hub",
                        grant: "GRANT USAGE ON SCHEMA journal_hub TO \(ServerSchema.quoted(server.user));")
                }
                return presence.exists
            }
        }
    }

    public func open(key: SyncKey, expecting hubID: HubID?) async throws -> any Hub {
        let link = try await connector.connect()
        do {
            let (id, firstKeyCheck) = try await link.run { connection in
                guard try await ServerSchema.presence(connection).exists else {
                    throw SyncError.hubUnavailable(hub: location, reason: "the database \(server.database) holds no hub (no schema journal_hub)")
                }
                try await ServerSchema.checkRights(connection, location: server)
                let version = try await ServerSchema.version(connection, location: server, latest: latestVersion)
                let row = try await connection.rows("SELECT hub_id, format, key_check FROM journal_hub.hub") {
                    try $0.decode((String, Int64, String).self)
                }.last
                guard let (text, format, keyCheck) = row else {
                    throw SyncError.corruptHub(hub: location, problem: "journal_hub.hub has no row")
                }
                guard format <= Int64(PostgresHub.format) else {
                    throw SyncError.hubFormatTooNew(hub: location, format: Int(format), supported: PostgresHub.format)
                }
                let id = HubID(rawValue: text)
                if let hubID, id != hubID { throw SyncError.hubReplaced(hub: location) }
                // A key of a later epoch than the hub's first opens it too; epochs came with schema 3. A
                // journal joined to this hub has its key from a sync, and its engine tells it from the
                // records it keeps (`SyncError.wrongKey`): only a join reads every record for it.
                if keyCheck != key.check, hubID == nil {
                    let records = version >= 3 ? try await PostgresHub.allEpochRecords(connection) : [:]
                    guard EpochRecord.standing(ofKey: key, records: records, hubID: id, firstKeyCheck: keyCheck).epoch != nil else {
                        throw SyncError.wrongKey(hub: location, hubID: id)
                    }
                }
                if version < latestVersion {
                    // Handed over to another role, the schema is changed by its owner only: say so,
                    // with the way to the SQL, rather than fail on the first statement.
                    let owner = try await ServerSchema.owner(connection)
                    guard owner.isUs else {
                        throw PostgresHubError.migrationNeedsOwner(
                            server: server.server, database: server.database, version: version, latest: latestVersion, owner: owner.name)
                    }
                    try await ServerSchema.migrate(connection, from: version, location: server, migrations: migrations)
                }
                return (id, keyCheck)
            }
            return PostgresHub(id: id, firstKeyCheck: firstKeyCheck, connector: connector, link: link)
        } catch {
            await link.close()
            throw error
        }
    }

    public func make(key: SyncKey, shared: Bool) async throws -> any Hub {
        let link = try await connector.connect()
        let id = HubID.random()
        do {
            try await link.run { connection in
                try await ServerSchema.checkCanCreate(connection, location: server)
                try await ServerSchema.migrate(connection, from: 0, location: server, migrations: migrations) { connection in
                    try await connection.query(
                        "INSERT INTO journal_hub.hub (hub_id, format, key_check) VALUES (\(id.rawValue), \(Int64(PostgresHub.format)), \(key.check))",
                        logger: PostgresConnector.quiet)
                }
            }
            return PostgresHub(id: id, firstKeyCheck: key.check, connector: connector, link: link)
        } catch {
            await link.close()
            throw error
        }
    }

    public func migrationScript() async throws -> String? {
        try await withLink { link in
            try await link.run { connection in
                guard try await ServerSchema.presence(connection).exists else {
                    throw SyncError.hubUnavailable(hub: location, reason: "the database \(server.database) holds no hub (no schema journal_hub)")
                }
                let version = try await ServerSchema.version(connection, location: server, latest: latestVersion)
                guard version < latestVersion else { return nil }
                let owner = try await ServerSchema.owner(connection)
                // A line break in a name would end the script's comment and start a statement of its own.
                guard !owner.name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    throw SyncError.corruptHub(hub: location, problem: "the schema's owner has a role name with control characters")
                }
                return ServerSchema.migrationScript(from: version, migrations: migrations, owner: owner.name, user: server.user)
            }
        }
    }

    public func nothingToJoin() -> any Error { PostgresHubError.noHub(database: server.database, server: server.server) }

    /// Runs `body` on a connection of its own, closed after.
    private func withLink<T: Sendable>(_ body: (PostgresLink) async throws -> T) async throws -> T {
        let link = try await connector.connect()
        do {
            let result = try await body(link)
            await link.close()
            return result
        } catch {
            await link.close()
            throw error
        }
    }
}

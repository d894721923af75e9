/// How a hub tells that another device published: what the daemon watches to sync at once rather
/// than at its next tick. The daemon switches over this: a new way is a compile error there until
/// it is watched.
public enum HubChanges: Sendable {
    /// New files in folders: the folders to watch, listed afresh after each sync (a device's folder
    /// appears when it first publishes). A folder hub.
    case files(folders: @Sendable () -> [String])
    /// A server's notifications: `listen` calls `listening` once the server listens and `rang` at each
    /// notification of another device, until it is cancelled (it returns) or its connection is lost
    /// (it throws). A PostgreSQL hub's LISTEN.
    case notifications(listen: @Sendable (_ listening: @escaping @Sendable () -> Void, _ rang: @escaping @Sendable () -> Void) async throws -> Void)
}

/// What `journal sync status` shows of a hub beyond its location.
public struct HubDescription: Sendable {
    /// Lines of fact: a server and its version, TLS.
    public var facts: [HubFact]
    /// What a person should do something about: hub files others can read, a link inside the hub.
    public var warnings: [String]
    /// True for a hub that rings when another device publishes: `sync status` says when it last did.
    public var rings: Bool

    public init(facts: [HubFact] = [], warnings: [String] = [], rings: Bool) {
        self.facts = facts
        self.warnings = warnings
        self.rings = rings
    }
}

/// One line of what `journal sync status` says about a hub: "TLS", "TLSv1.3, certificate verified".
public struct HubFact: Sendable, Equatable {
    /// The label on a terminal: "Server", "TLS".
    public let label: String
    /// The key in `--json`: "server", "tls".
    public let key: String
    public let value: String

    public init(label: String, key: String, value: String) {
        self.label = label
        self.key = key
        self.value = value
    }
}

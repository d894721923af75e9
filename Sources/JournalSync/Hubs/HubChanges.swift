import JournalKit

/// How a hub tells that another device published: what the daemon watches to sync at once rather
/// than at its next tick. The daemon switches over this: a new way is a compile error there until
/// it is watched.
public enum HubChanges: Sendable {
    /// New files in folders: the folders to watch, listed afresh after each sync (a device's folder
    /// appears when it first publishes). A folder hub.
    case files(folders: @Sendable () -> [WatchedFolder])
    /// A server's notifications: `listen` gives the daemon each `DoorbellSign` until it is cancelled
    /// (it returns) or its connection is lost (it throws). A PostgreSQL hub's LISTEN.
    case notifications(listen: @Sendable (_ sign: @escaping @Sendable (DoorbellSign) -> Void) async throws -> Void)
    /// Looks the daemon takes on a schedule (`HubPoll`), as the hub cannot push: a WebDAV hub. Each
    /// look sees every change of another device's since the one before (a card rewritten is left to
    /// the next sync), so the daemon's safety-net tick syncs only for the journal, and for this
    /// device's card now and then (`LoopPolicy.polledHousekeeping`).
    case polls(HubPoll)

    /// How a daemon hears of another device's change on a hub: `sync status` says when it last did,
    /// for a hub that rings or is looked at.
    public enum HeardBy: Sendable, Equatable {
        /// Its own watch of the hub's files: nothing to record.
        case watching
        /// The server's notification.
        case ring
        /// Its looks at the hub.
        case looking
    }

    public var heard: HeardBy {
        switch self {
        case .files: .watching
        case .notifications: .ring
        case .polls: .looking
        }
    }

    /// True when the daemon finds the hub's changes by looking at it.
    public var isPolled: Bool { heard == .looking }
}

/// A folder of a hub to watch, and the log whose folder it is (nil for the folders of cards, key
/// epochs and devices, whose changes only a whole sync reads).
public struct WatchedFolder: Sendable, Equatable {
    public let path: String
    public let log: DeviceID?

    public init(_ path: String, log: DeviceID? = nil) {
        self.path = path
        self.log = log
    }
}

/// What a hub's doorbell tells the daemon.
public enum DoorbellSign: Sendable, Equatable {
    /// The server listens: what rang before it did is unknown, so sync.
    case listening
    /// Another device published: `device`'s log, when the ring named one (a hint: what is read is
    /// verified as ever), or nil for a ring that names none (a new key epoch).
    case rang(device: DeviceID?)
    /// The doorbell's own test ring, rung from another connection as another device would, did not
    /// come back: notifications do not arrive (a pooler in transaction mode hands the listening
    /// session's server connection to others), so sync now, as a poll. Said again every
    /// `pollingEvery` while it lasts.
    case unheard(pollingEvery: Duration)
    /// A test ring came back after `unheard`: notifications arrive again, polling ends.
    case heardAgain
}

/// What `journal sync status` shows of a hub beyond its location.
public struct HubDescription: Sendable {
    /// Lines of fact: a server and its version, TLS.
    public var facts: [HubFact]
    /// What a person should do something about: hub files others can read, a link inside the hub.
    public var warnings: [String]

    public init(facts: [HubFact] = [], warnings: [String] = []) {
        self.facts = facts
        self.warnings = warnings
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

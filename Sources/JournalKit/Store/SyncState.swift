/// The hub a journal is joined to, as the journal remembers it.
public struct HubRecord: Sendable, Equatable {
    public var hubID: HubID
    public var kind: String
    public var location: String
    /// This device's changes up to this local sequence number are on the hub.
    public var publishedThrough: Int64
    public var lastSyncAt: Timestamp?
    /// What the last sync attempt came to.
    public var lastSync: SyncOutcome?
    /// When the daemon last heard of another device's change (a server's notification, or a look at a
    /// polled hub), if ever.
    public var lastNotificationAt: Timestamp?
    /// When a sync last succeeded, if ever (the last attempt may have failed since).
    public var lastSucceededAt: Timestamp?

    public init(
        hubID: HubID, kind: String, location: String, publishedThrough: Int64 = 0, lastSyncAt: Timestamp? = nil,
        lastSync: SyncOutcome? = nil, lastNotificationAt: Timestamp? = nil, lastSucceededAt: Timestamp? = nil
    ) {
        self.hubID = hubID
        self.kind = kind
        self.location = location
        self.publishedThrough = publishedThrough
        self.lastSyncAt = lastSyncAt
        self.lastSync = lastSync
        self.lastNotificationAt = lastNotificationAt
        self.lastSucceededAt = lastSucceededAt
    }
}

/// How this journal's sync stands, in a word a shell prompt or a status bar can switch on
/// (`journal status --format '{sync_state}'`).
public enum SyncHealth: String, Sendable {
    /// The last sync succeeded and nothing made here waits to be published.
    case ok
    /// Joined, and changes made here wait for the next sync, or none has run yet.
    case waiting
    /// The last sync attempt failed (`journal sync status` says why).
    case failing
    /// Not joined to a hub.
    case notJoined = "not-joined"
}

/// What one sync attempt came to: success, or a failure of a kind (which decides the exit status
/// `journal sync` gives it), each with its message for people. Every attempt records one, the
/// daemon's and `journal sync`'s alike, whether it failed at reaching the hub or in the middle.
public struct SyncOutcome: Sendable, Equatable {
    /// nil for success.
    public let failure: FailureKind?
    /// What it moved, or why it failed.
    public let message: String
    /// Why the journal can never sync with its hub again as it is, when the failure says so
    /// (`SyncStopping`): `journal add` says it once.
    public let stoppedBecause: String?

    public init(failure: FailureKind?, message: String, stoppedBecause: String? = nil) {
        self.failure = failure
        self.message = message
        self.stoppedBecause = stoppedBecause
    }

    public static func succeeded(_ message: String) -> SyncOutcome { SyncOutcome(failure: nil, message: message) }

    /// The outcome of an attempt that threw `error`.
    public static func failed(_ error: any Error) -> SyncOutcome {
        SyncOutcome(failure: failureKind(error), message: failureMessage(error), stoppedBecause: (error as? any SyncStopping)?.stoppedBecause)
    }

    public var succeeded: Bool { failure == nil }
    /// The exit status of `journal sync` for this outcome.
    public var exitStatus: Int32 { failure?.exitStatus ?? 0 }
}

/// A segment this journal wrote to a hub, and what it looked like there when written.
public struct PublishedSegment: Hashable, Sendable {
    public let range: PublishedRange
    public let fingerprint: String?

    public init(range: PublishedRange, fingerprint: String?) {
        self.range = range
        self.fingerprint = fingerprint
    }
}

/// Positions of another device's log that this journal has not received, though later ones are on
/// the hub, and since when it has waited for them.
public struct WaitingPositions: Hashable, Sendable {
    public let device: DeviceID
    public let first: Int64
    public let last: Int64
    public let since: Timestamp

    public init(device: DeviceID, first: Int64, last: Int64, since: Timestamp) {
        self.device = device
        self.first = first
        self.last = last
        self.since = since
    }
}

/// A range of this device's change sequence written to a hub as one segment.
public struct PublishedRange: Hashable, Sendable, Comparable {
    public let first: Int64
    public let last: Int64

    public init(first: Int64, last: Int64) {
        self.first = first
        self.last = last
    }

    public static func < (lhs: PublishedRange, rhs: PublishedRange) -> Bool {
        (lhs.first, lhs.last) < (rhs.first, rhs.last)
    }
}

/// A file a sync found in a device's log that is not a segment that device wrote, and what became of it.
public struct SetAsideFile: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        /// Found in this device's own log and moved out of it, into the hub's set-aside folder.
        case moved
        /// Found in this device's own log, which the hub would not let it move: a person must remove it.
        case left
        /// Found in another device's log, and not readable as a file by this user: passed over.
        case passedOver = "passed-over"
        /// Not a file: something about the hub said once, its reason a sentence (changes of a revoked
        /// device this journal kept, an invitation two devices used).
        case noted
    }

    /// The device whose log held it.
    public let device: DeviceID
    /// Its name in that log; empty when that device's whole log cannot be read.
    public let name: String
    public let reason: String
    public let outcome: Outcome
    /// When the sync that found it ran.
    public let at: Timestamp

    public init(device: DeviceID, name: String, reason: String, outcome: Outcome, at: Timestamp) {
        self.device = device
        self.name = name
        self.reason = reason
        self.outcome = outcome
        self.at = at
    }
}

/// What this journal published on its hub of other devices' records because it moved there from
/// another hub: how many, of how many devices, and when last.
public struct MovedHere: Sendable, Equatable {
    public let changes: Int
    public let devices: Int
    public let at: Timestamp

    /// "19 changes of 2 other devices, which this journal brought from its previous hub, published
    /// here by this device (2026-11-28 14:00)".
    public var sentence: String {
        "\(changes) change\(changes == 1 ? "" : "s") of \(devices) other device\(devices == 1 ? "" : "s"), which this journal brought from its "
            + "previous hub, published here by this device (\(LocalTime.display(at))): machines that join this hub find them"
    }
}

/// A failure after which a journal never syncs with its hub again as it is (its device was revoked):
/// it says why, in words a person can act on.
public protocol SyncStopping: Error {
    /// Why, when this failure stops syncing for good; nil when it does not.
    var stoppedBecause: String? { get }
}

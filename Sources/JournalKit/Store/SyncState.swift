/// The hub a journal is joined to, as the journal remembers it.
public struct HubRecord: Sendable, Equatable {
    public var hubID: String
    public var kind: String
    public var location: String
    /// This device's changes up to this local sequence number are on the hub.
    public var publishedThrough: Int64
    public var lastSyncAt: Timestamp?
    public var lastSyncResult: String?
    /// When the hub last rang the daemon (a PostgreSQL hub's notification), if ever.
    public var lastNotificationAt: Timestamp?

    public init(
        hubID: String, kind: String, location: String, publishedThrough: Int64 = 0, lastSyncAt: Timestamp? = nil,
        lastSyncResult: String? = nil, lastNotificationAt: Timestamp? = nil
    ) {
        self.hubID = hubID
        self.kind = kind
        self.location = location
        self.publishedThrough = publishedThrough
        self.lastSyncAt = lastSyncAt
        self.lastSyncResult = lastSyncResult
        self.lastNotificationAt = lastNotificationAt
    }
}

/// A segment this journal wrote to a hub, and what it looked like there when written.
public struct PublishedSegment: Hashable, Sendable {
    public let range: PublishedRange
    public let fingerprint: String?
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

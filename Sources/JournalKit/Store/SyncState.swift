/// The hub a journal is joined to, as the journal remembers it.
public struct HubRecord: Sendable, Equatable {
    public var hubID: String
    public var kind: String
    public var location: String
    /// This device's changes up to this local sequence number are on the hub.
    public var publishedThrough: Int64
    public var lastSyncAt: Timestamp?
    public var lastSyncResult: String?

    public init(
        hubID: String, kind: String, location: String, publishedThrough: Int64 = 0, lastSyncAt: Timestamp? = nil,
        lastSyncResult: String? = nil
    ) {
        self.hubID = hubID
        self.kind = kind
        self.location = location
        self.publishedThrough = publishedThrough
        self.lastSyncAt = lastSyncAt
        self.lastSyncResult = lastSyncResult
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

/// A position in the local change sequence: "everything up to here has been seen".
public struct Anchor: Hashable, Comparable, Sendable, Codable {
    public let sequence: Int64

    public init(sequence: Int64) { self.sequence = sequence }

    public static func < (lhs: Anchor, rhs: Anchor) -> Bool { lhs.sequence < rhs.sequence }
}

/// The answer to "what changed since this anchor?", as HealthKit's anchored object query gives it.
public struct ChangeSet: Sendable {
    /// Every drink written after the anchor, in the order written, tombstones included.
    public let records: [Replicated<Drink>]
    /// The anchor to ask with next time; the old one when nothing changed.
    public let newAnchor: Anchor?

    public init(records: [Replicated<Drink>], newAnchor: Anchor?) {
        self.records = records
        self.newAnchor = newAnchor
    }

    /// Drinks added or changed since the anchor, and still live.
    public var upserted: [Drink] { records.filter { !$0.isDeleted }.map(\.payload) }

    /// Drinks deleted since the anchor.
    public var deletedIDs: [DrinkID] { records.filter(\.isDeleted).map(\.payload.id) }

    /// True when a page was full, so asking again with `newAnchor` may find more.
    public func mayHaveMore(limit: Int) -> Bool { records.count >= limit }
}

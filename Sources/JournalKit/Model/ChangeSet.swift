/// A position in the local change sequence: "everything up to here has been seen".
public struct Anchor: Hashable, Comparable, Sendable, Codable {
    public let sequence: Int64

    public init(sequence: Int64) { self.sequence = sequence }

    public static func < (lhs: Anchor, rhs: Anchor) -> Bool { lhs.sequence < rhs.sequence }
}

/// The answer to "what changed since this anchor?", as HealthKit's anchored object query gives it.
public struct ChangeSet: Sendable {
    /// Every row written after the anchor, in the order written, tombstones included.
    public let revisions: [DrinkRevision]
    /// The anchor to ask with next time; the old one when nothing changed.
    public let newAnchor: Anchor?

    public init(revisions: [DrinkRevision], newAnchor: Anchor?) {
        self.revisions = revisions
        self.newAnchor = newAnchor
    }

    /// Drinks added or changed since the anchor, and still live.
    public var upserted: [Drink] { revisions.filter { !$0.isDeleted }.map(\.drink) }

    /// Drinks deleted since the anchor.
    public var deletedIDs: [DrinkID] { revisions.filter(\.isDeleted).map(\.drink.id) }

    /// True when a page was full, so asking again with `newAnchor` may find more.
    public func mayHaveMore(limit: Int) -> Bool { revisions.count >= limit }
}

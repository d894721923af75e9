/// The stored state of one drink, with what sync needs: whether it is deleted (a tombstone), the
/// hybrid logical clock and device of its last write, and its place in the local change sequence.
public struct DrinkRevision: Hashable, Sendable {
    public var drink: Drink
    public var isDeleted: Bool
    public var clock: HybridTimestamp
    public var origin: DeviceID
    /// The local change sequence number of the last write to this row; what an `Anchor` counts.
    public var sequence: Int64

    public init(drink: Drink, isDeleted: Bool, clock: HybridTimestamp, origin: DeviceID, sequence: Int64) {
        self.drink = drink
        self.isDeleted = isDeleted
        self.clock = clock
        self.origin = origin
        self.sequence = sequence
    }
}

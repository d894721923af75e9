/// The stored state of one custom drink, with what sync needs, like `DrinkRevision` for drinks.
public struct DrinkKindRevision: Hashable, Sendable {
    public var name: String
    public var caffeineMg: Double
    public var isDeleted: Bool
    public var clock: HybridTimestamp
    public var origin: DeviceID
    public var sequence: Int64

    public init(name: String, caffeineMg: Double, isDeleted: Bool, clock: HybridTimestamp, origin: DeviceID, sequence: Int64) {
        self.name = name
        self.caffeineMg = caffeineMg
        self.isDeleted = isDeleted
        self.clock = clock
        self.origin = origin
        self.sequence = sequence
    }

    /// The catalog entry a live custom drink is.
    public var kind: DrinkKind {
        DrinkKind(name: name, caffeineMg: caffeineMg, source: "your own", isCustom: true)
    }
}

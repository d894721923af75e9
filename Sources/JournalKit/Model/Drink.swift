/// The identifier of a drink: a lowercase UUID, the same on every machine the drink reaches.
public struct DrinkID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static func < (lhs: DrinkID, rhs: DrinkID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }

    /// The first 8 characters: what lists show, and usually enough to name a drink in `rm` or `edit`.
    public var short: String { String(rawValue.prefix(8)) }
}

/// One drink someone had: what, how much caffeine, when, and an optional note.
public struct Drink: Hashable, Sendable {
    public var id: DrinkID
    /// The catalog name of the drink, such as `espresso`.
    public var kind: String
    public var caffeineMg: Double
    public var consumedAt: Timestamp
    public var note: String?

    public init(id: DrinkID, kind: String, caffeineMg: Double, consumedAt: Timestamp, note: String? = nil) {
        self.id = id
        self.kind = kind
        self.caffeineMg = caffeineMg
        self.consumedAt = consumedAt
        self.note = note
    }
}

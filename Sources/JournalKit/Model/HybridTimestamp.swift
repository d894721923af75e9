/// A hybrid logical clock reading: 48 bits of Unix milliseconds, then 16 bits of counter.
///
/// Ordered like the integer it packs into, so SQLite compares it as an INTEGER column.
public struct HybridTimestamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }

    public init(milliseconds: Int64, counter: Int64 = 0) {
        rawValue = milliseconds << 16 | (counter & 0xFFFF)
    }

    public static let zero = HybridTimestamp(rawValue: 0)

    public var milliseconds: Int64 { rawValue >> 16 }
    public var counter: Int64 { rawValue & 0xFFFF }
    /// The real time the reading was taken at, as its device's clock had it: the writer's now.
    public var physicalTime: Timestamp { Timestamp(milliseconds: milliseconds) }

    /// The next reading after this one. A counter past 0xFFFF carries into the milliseconds.
    public var successor: HybridTimestamp { HybridTimestamp(rawValue: rawValue == .max ? rawValue : rawValue + 1) }

    /// True for a raw value a real clock could give: not negative, and milliseconds before the year
    /// 3000. A record carrying anything else is malformed, not merely from the future.
    public static func isPlausible(_ rawValue: Int64) -> Bool {
        rawValue >= 0 && rawValue >> 16 < 32_503_680_000_000
    }

    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "\(milliseconds).\(counter)" }
}

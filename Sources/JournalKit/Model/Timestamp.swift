/// An instant, as UTC Unix milliseconds: how every time is stored.
public struct Timestamp: Hashable, Comparable, Sendable, Codable {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public static func + (lhs: Timestamp, rhs: Duration) -> Timestamp {
        Timestamp(milliseconds: lhs.milliseconds + rhs.wholeMilliseconds)
    }

    public static func - (lhs: Timestamp, rhs: Duration) -> Timestamp {
        Timestamp(milliseconds: lhs.milliseconds - rhs.wholeMilliseconds)
    }

    /// Hours from `earlier` to `self`; negative when `earlier` is later.
    public func hours(since earlier: Timestamp) -> Double {
        Double(milliseconds - earlier.milliseconds) / 3_600_000
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded toward zero.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

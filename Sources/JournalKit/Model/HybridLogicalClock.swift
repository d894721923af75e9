/// The hybrid logical clock rules: readings never go backwards, stay close to real time, and order
/// every write after everything its device had seen when it was made.
public struct HybridLogicalClock: Sendable, Equatable {
    /// How far ahead of real time a received reading may pull this clock. A device with a wrong
    /// clock still has its records ordered by their readings, but cannot drag everyone into its future.
    public static let maximumDrift: Duration = .seconds(5 * 60)

    public private(set) var last: HybridTimestamp

    public init(last: HybridTimestamp = .zero) { self.last = last }

    /// The reading for a local write at real time `now`.
    public mutating func tick(now: Timestamp) -> HybridTimestamp {
        let physical = HybridTimestamp(milliseconds: now.milliseconds)
        last = max(physical, last.successor)
        return last
    }

    /// Takes in a reading received from another device, so later local writes order after it.
    public mutating func receive(_ remote: HybridTimestamp, now: Timestamp) {
        let bound = HybridTimestamp(milliseconds: (now + Self.maximumDrift).milliseconds)
        let physical = HybridTimestamp(milliseconds: now.milliseconds)
        last = max(physical, last, min(remote, bound))
    }
}

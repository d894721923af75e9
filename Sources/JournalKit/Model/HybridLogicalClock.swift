/// The hybrid logical clock rules: readings never go backwards while they stay close to real time,
/// and order every write after everything its device had seen when it was made.
///
/// A reading is trusted only so far: the clock never runs more than `maximumDrift` ahead of the real
/// time it is given. A reading kept from a clock that was once wrong (a bad RTC, NTP off for a minute)
/// and is now right is left behind, and the clock follows real time again: otherwise every write the
/// device made until real time caught up (years, for a clock once set to 2030) would win over every
/// write made elsewhere, later. A record written before keeps its reading; an edit of it still orders
/// after it (`WriteContext.writeLocal`), so a device's own edits keep the order it made them in.
public struct HybridLogicalClock: Sendable, Equatable {
    /// How far ahead of real time a reading may be: neither a received reading nor one kept from a
    /// clock that ran ahead pulls the readings this device writes further than this.
    public static let maximumDrift: Duration = .seconds(5 * 60)

    public private(set) var last: HybridTimestamp
    /// The reading this clock left behind, when its last tick found it further ahead of real time than
    /// `maximumDrift` allows.
    public private(set) var leftBehind: HybridTimestamp?

    public init(last: HybridTimestamp = .zero) { self.last = last }

    /// The reading for a local write at real time `now`.
    public mutating func tick(now: Timestamp) -> HybridTimestamp {
        let physical = HybridTimestamp(milliseconds: now.milliseconds)
        if last > Self.bound(now) {
            leftBehind = last
            last = physical
            return last
        }
        last = max(physical, last.successor)
        return last
    }

    /// Takes in a reading received from another device, so later local writes order after it.
    public mutating func receive(_ remote: HybridTimestamp, now: Timestamp) {
        let physical = HybridTimestamp(milliseconds: now.milliseconds)
        last = max(physical, last, min(remote, Self.bound(now)))
    }

    /// The furthest reading the clock may hold at real time `now`.
    public static func bound(_ now: Timestamp) -> HybridTimestamp {
        HybridTimestamp(milliseconds: (now + maximumDrift).milliseconds)
    }

    /// True when `reading` is further ahead of real time `now` than a clock that follows it may be.
    public static func isAhead(_ reading: HybridTimestamp, of now: Timestamp) -> Bool { reading > bound(now) }
}

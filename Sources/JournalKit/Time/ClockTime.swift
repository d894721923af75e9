/// A time of day on the local clock, to the minute, such as a bedtime (`23:00`) or the hour a
/// person's day starts (`04:00`): a reading of the clock, not an instant, so it means the same on
/// the days clocks change.
public struct ClockTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Minutes after midnight, 0 to 1439.
    public let minutes: Int

    public static let midnight = ClockTime(minutes: 0)!

    public init?(minutes: Int) {
        guard (0..<1440).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.init(minutes: hour * 60 + minute)
    }

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }

    /// `23:00`.
    public var description: String { LocalTime.padded(hour, 2) + ":" + LocalTime.padded(minute, 2) }

    public static func < (lhs: ClockTime, rhs: ClockTime) -> Bool { lhs.minutes < rhs.minutes }

    /// The time `text` writes as `HH:MM` on a 24-hour clock (`23:00`, `7:30`, and `23:00:00` as TOML
    /// writes a time), or as `11pm` and `11:30pm`; nil for anything else.
    public static func parse(_ text: String) -> ClockTime? {
        var body = Substring(text.lowercased())
        var afternoon: Bool?
        for (suffix, isAfternoon) in [("am", false), ("pm", true)] where body.hasSuffix(suffix) {
            body = body.dropLast(2)
            afternoon = isAfternoon
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            parts[0].count <= 2, parts.dropFirst().allSatisfy({ $0.count == 2 }), let hour = Int(parts[0])
        else { return nil }
        let minute = parts.count > 1 ? Int(parts[1]) ?? 99 : 0
        // Seconds are allowed only as TOML writes a whole minute.
        guard parts.count < 3 || parts[2] == "00" else { return nil }
        if let afternoon {
            guard (1...12).contains(hour), parts.count < 3 else { return nil }
            return ClockTime(hour: hour % 12 + (afternoon ? 12 : 0), minute: minute)
        }
        guard parts.count > 1 else { return nil }
        return ClockTime(hour: hour, minute: minute)
    }

    /// The time of day `text` gives (see `parse`), or an error saying what would do.
    public static func given(_ text: String) throws(TimeParseError) -> ClockTime {
        guard let time = parse(text) else {
            throw TimeParseError(input: text, reason: "it is not a time of day", example: "23:00, 22:30 or 11pm")
        }
        return time
    }
}

import Glibc

/// A wall-clock reading in the machine's time zone (`TZ`, else /etc/localtime).
public struct LocalDateTime: Hashable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var millisecond: Int
    /// 0 is Sunday, as in C's `tm_wday`.
    public var weekday: Int
    public var utcOffsetSeconds: Int

    /// This reading's calendar day, as a value that compares and subtracts by whole days.
    public var date: LocalDate { LocalDate(year: year, month: month, day: day) }
}

/// A local calendar day.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `2026-11-21`.
    public var description: String {
        "\(LocalTime.padded(year, 4))-\(LocalTime.padded(month, 2))-\(LocalTime.padded(day, 2))"
    }

    /// The day of the week, 0 for Sunday (as C's `tm_wday`), read at noon, which every day has
    /// whatever daylight saving does at midnight.
    public var weekday: Int { LocalTime.components(LocalTime.startOfDay(self) + .seconds(12 * 3600)).weekday }

    /// The day `days` later (or earlier, when negative), across months and years.
    public func adding(days: Int) -> LocalDate {
        let start = LocalTime.startOfDay(self)
        // Noon of the target day is safely inside it whatever daylight saving does at midnight.
        let noon = start + .seconds(Int64(days) * 86_400 + 12 * 3600)
        return LocalTime.components(noon).date
    }
}

/// How a wall-clock time maps to instants: usually one; none in a spring-forward gap; two when
/// clocks fall back and the hour repeats.
public enum LocalTimeResolution: Equatable, Sendable {
    case unique(Timestamp)
    case skipped
    case repeated(earlier: Timestamp, later: Timestamp)
    case invalid
}

/// Conversions between instants and local wall-clock time, on the C library's time zone rules (the
/// same ones SQLite's 'localtime' modifier uses in the views), so no ICU is loaded at start-up.
public enum LocalTime {
    private static let zoneLoaded: Void = { tzset() }()

    public static func components(_ instant: Timestamp) -> LocalDateTime {
        _ = zoneLoaded
        var seconds = time_t(floorDivide(instant.milliseconds, 1000))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return LocalDateTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
            millisecond: Int(instant.milliseconds - floorDivide(instant.milliseconds, 1000) * 1000),
            weekday: Int(parts.tm_wday), utcOffsetSeconds: Int(parts.tm_gmtoff))
    }

    /// The instant(s) at which local clocks read this date and time.
    public static func resolve(
        _ date: LocalDate, hour: Int, minute: Int, second: Int = 0, millisecond: Int = 0
    ) -> LocalTimeResolution {
        guard (1...12).contains(date.month), (1...31).contains(date.day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second), (0...999).contains(millisecond)
        else { return .invalid }
        let wanted = (date, hour, minute, second)
        var found: [Timestamp] = []
        for daylightSaving: Int32 in [0, 1] {
            guard let seconds = makeTime(date, hour, minute, second, daylightSaving: daylightSaving) else { continue }
            let instant = Timestamp(milliseconds: Int64(seconds) * 1000 + Int64(millisecond))
            let back = components(instant)
            if (back.date, back.hour, back.minute, back.second) == wanted, !found.contains(instant) {
                found.append(instant)
            }
        }
        found.sort()
        switch found.count {
        case 1: return .unique(found[0])
        case 2: return .repeated(earlier: found[0], later: found[1])
        default:
            // Either a date that does not exist (February 30th) or a time clocks skipped.
            guard let seconds = makeTime(date, 12, 0, 0, daylightSaving: -1),
                components(Timestamp(milliseconds: Int64(seconds) * 1000)).date == date
            else { return .invalid }
            return .skipped
        }
    }

    /// The first instant of the local day `date`.
    public static func startOfDay(_ date: LocalDate) -> Timestamp {
        // Where midnight is skipped by daylight saving, mktime moves it to the first instant that exists.
        let seconds = makeTime(date, 0, 0, 0, daylightSaving: -1) ?? 0
        return Timestamp(milliseconds: Int64(seconds) * 1000)
    }

    /// The instant local clocks read `time` on `date`: the earlier one when the hour repeats, and
    /// where clocks skipped it, the instant they jumped forward (the first that reads later).
    public static func instant(of time: ClockTime, on date: LocalDate) -> Timestamp {
        switch resolve(date, hour: time.hour, minute: time.minute) {
        case .unique(let instant), .repeated(let instant, _): return instant
        case .skipped, .invalid:
            // Read with and without daylight saving, the skipped time falls before and after the
            // jump: the jump is the first second between them that reads `time` or later on `date`.
            let readings = [Int32(0), 1].compactMap { makeTime(date, time.hour, time.minute, 0, daylightSaving: $0) }
            guard var low = readings.min(), var high = readings.max(), low < high else { return startOfDay(date) }
            func reached(_ seconds: time_t) -> Bool {
                let local = components(Timestamp(milliseconds: Int64(seconds) * 1000))
                return local.date > date || (local.date == date && local.hour * 60 + local.minute >= time.minutes)
            }
            while high - low > 1 {
                let middle = low + (high - low) / 2
                if reached(middle) { high = middle } else { low = middle }
            }
            return Timestamp(milliseconds: Int64(high) * 1000)
        }
    }

    /// The day `instant` falls in when days start at `start`: a drink at 01:30 belongs to the day
    /// before when days start at 04:00.
    public static func day(of instant: Timestamp, startingAt start: ClockTime) -> LocalDate {
        let local = components(instant)
        return local.hour * 60 + local.minute < start.minutes ? local.date.adding(days: -1) : local.date
    }

    /// The first instant of the day `date` when days start at `start`.
    public static func start(of date: LocalDate, startingAt start: ClockTime) -> Timestamp {
        start == .midnight ? startOfDay(date) : instant(of: start, on: date)
    }

    /// `2026-11-21T08:30:00+01:00`, with milliseconds only when there are some.
    public static func iso8601(_ instant: Timestamp) -> String {
        let local = components(instant)
        var text = "\(local.date)T\(padded(local.hour, 2)):\(padded(local.minute, 2)):\(padded(local.second, 2))"
        if local.millisecond != 0 { text += ".\(padded(local.millisecond, 3))" }
        return text + offsetText(local.utcOffsetSeconds)
    }

    /// `+01:00`: an offset from UTC as ISO 8601 writes it.
    static func offsetText(_ offset: Int) -> String {
        let minutes = abs(offset) / 60
        return "\(offset < 0 ? "-" : "+")\(padded(minutes / 60, 2)):\(padded(minutes % 60, 2))"
    }

    /// The offsets from UTC in force on `date`: at its start and at its end (two on a day clocks
    /// change), earliest in force first.
    static func offsetsAround(_ date: LocalDate) -> [Int] {
        let offsets = [startOfDay(date), startOfDay(date.adding(days: 1)) - .milliseconds(1)].map { components($0).utcOffsetSeconds }
        return offsets[0] == offsets[1] ? [offsets[0]] : offsets
    }

    /// `2026-11-21 08:30`: how lists show a time.
    public static func display(_ instant: Timestamp) -> String {
        let local = components(instant)
        return "\(local.date) \(padded(local.hour, 2)):\(padded(local.minute, 2))"
    }

    /// `08:30`.
    public static func clockTime(_ instant: Timestamp) -> String {
        let local = components(instant)
        return "\(padded(local.hour, 2)):\(padded(local.minute, 2))"
    }

    public static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(abs(number))
        let sign = number < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func makeTime(
        _ date: LocalDate, _ hour: Int, _ minute: Int, _ second: Int, daylightSaving: Int32
    ) -> time_t? {
        _ = zoneLoaded
        var parts = tm()
        parts.tm_year = Int32(date.year - 1900)
        parts.tm_mon = Int32(date.month - 1)
        parts.tm_mday = Int32(date.day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        parts.tm_isdst = daylightSaving
        let seconds = mktime(&parts)
        return seconds == -1 && !(date.year == 1969 || date.year == 1970) ? nil : seconds
    }

    /// `value / divisor` rounded toward minus infinity, for instants before 1970 too.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

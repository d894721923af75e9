/// Reads ISO 8601 date-times: `2026-11-21T08:30`, `2026-11-21 08:30:15.250`, `2026-11-21T07:30:00Z`,
/// `2026-11-21T08:30+01:00`. Without an offset the time is local.
enum ISO8601Reader {
    static let example = "2026-11-21T08:30, 2026-11-21 08:30:00+01:00"

    static func looksLikeDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(5))
        return bytes.count == 5 && bytes[0..<4].allSatisfy { (48...57).contains($0) } && bytes[4] == UInt8(ascii: "-")
    }

    /// `2026-11-25` and nothing more, as a day; nil for anything else.
    static func dateAlone(_ text: String) -> LocalDate? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
            let day = scanner.digits(2), scanner.atEnd
        else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    static func parse(_ input: String) throws(TimeParseError) -> Timestamp {
        var scanner = Scanner(Array(input.utf8))
        func fail(_ reason: String) -> TimeParseError {
            TimeParseError(input: input, reason: reason, example: example)
        }
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
            let day = scanner.digits(2)
        else { throw fail("a date is written YYYY-MM-DD") }
        let date = LocalDate(year: year, month: month, day: day)
        guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") else {
            if scanner.atEnd { throw fail("a date needs a time of day") }
            throw fail("a date is written YYYY-MM-DD")
        }
        guard let hour = scanner.digits(2), scanner.skip(":"), let minute = scanner.digits(2) else {
            throw fail("a time is written HH:MM")
        }
        var second = 0
        var millisecond = 0
        if scanner.skip(":") {
            guard let value = scanner.digits(2) else { throw fail("seconds are written :SS") }
            second = value
            if scanner.skip(".") || scanner.skip(",") {
                guard let (fraction, count) = scanner.fraction() else { throw fail("a fraction of a second needs digits") }
                millisecond = count >= 3 ? fraction / power10(count - 3) : fraction * power10(3 - count)
            }
        }
        guard hour < 24, minute < 60, second < 60 else { throw fail("there is no such time of day") }
        let offsetSeconds: Int?
        if scanner.skip("Z") || scanner.skip("z") {
            offsetSeconds = 0
        } else if let sign = scanner.sign() {
            guard let hours = scanner.digits(2) else { throw fail("an offset is written +HH:MM") }
            _ = scanner.skip(":")
            let minutes = scanner.digits(2) ?? 0
            guard hours <= 18, minutes < 60 else { throw fail("there is no such offset") }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            offsetSeconds = nil
        }
        guard scanner.atEnd else { throw fail("unexpected text after the time") }
        guard let offsetSeconds else {
            switch LocalTime.resolve(date, hour: hour, minute: minute, second: second, millisecond: millisecond) {
            case .unique(let instant): return instant
            case .repeated(let earlier, let later):
                throw TimeParseError(
                    input: input, reason: "clocks went back that night, so this local time happened twice",
                    example: "\(LocalTime.iso8601(earlier)) or \(LocalTime.iso8601(later))")
            case .skipped:
                // With an offset, the time names one instant: the offsets before and after the jump.
                let written = "\(date)T\(LocalTime.padded(hour, 2)):\(LocalTime.padded(minute, 2))"
                throw TimeParseError(
                    input: input, reason: "clocks skipped this local time that day (daylight saving)",
                    example: LocalTime.offsetsAround(date).map { written + LocalTime.offsetText($0) }.joined(separator: " or "))
            case .invalid: throw fail("there is no such day")
            }
        }
        guard let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day) else {
            throw fail("there is no such day")
        }
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        return Timestamp(milliseconds: seconds * 1000 + Int64(millisecond))
    }

    private static func power10(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }

        /// Up to 9 fractional digits, and how many there were.
        mutating func fraction() -> (Int, Int)? {
            var value = 0
            var count = 0
            while index < bytes.count, (48...57).contains(bytes[index]) {
                if count < 9 {
                    value = value * 10 + Int(bytes[index] - 48)
                    count += 1
                }
                index += 1
            }
            return count == 0 ? nil : (value, count)
        }

        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}

/// Proleptic Gregorian calendar arithmetic, independent of any time zone.
public enum CivilCalendar {
    /// Days from 1970-01-01 to the given date, or nil when the date does not exist.
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

import JournalKit

/// The dates of a Health export, always written `2024-02-28 08:00:00 +0100`: read by position, as
/// fast as the export's samples come (the time parser of the command line, for what people type,
/// took a fifth of an import).
enum HealthDate {
    /// The instant `text` writes, or nil when it is not such a date, or no such day or time.
    static func instant(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { bytes -> Timestamp? in
            guard bytes.count == 25, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " "),
                bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: " "),
                bytes[20] == UInt8(ascii: "+") || bytes[20] == UInt8(ascii: "-")
            else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for byte in bytes[start..<(start + count)] {
                    guard (48...57).contains(byte) else { return nil }
                    value = value * 10 + Int(byte - 48)
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
                let minute = number(14, 2), let second = number(17, 2), let offsetHours = number(21, 2),
                let offsetMinutes = number(23, 2), hour < 24, minute < 60, second < 60, offsetHours <= 18, offsetMinutes < 60,
                let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
            else { return nil }
            let offset = (bytes[20] == UInt8(ascii: "-") ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
            let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
            return Timestamp(milliseconds: seconds * 1000)
        }
    }
}

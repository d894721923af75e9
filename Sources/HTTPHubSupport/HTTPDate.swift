import JournalKit

/// An HTTP date (RFC 9110, section 5.6.7, its preferred form "Sun, 06 Nov 1994 08:49:37 GMT").
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds since 1970 of `text`; nil for another form, or a date that does not exist.
    public static func seconds(_ text: String) -> Int64? {
        let words = text.split(separator: " ")
        guard words.count == 6, words[5] == "GMT", words[3].count == 4, let day = Int(words[1]), let year = Int(words[3]),
            let month = months.firstIndex(of: words[2].lowercased()).map({ $0 + 1 }),
            let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
        else { return nil }
        let clock = words[4].split(separator: ":").compactMap { Int64($0) }
        // Bounded before any arithmetic: a server's crafted date must not overflow it.
        guard (1970...9999).contains(year), clock.count == 3, (0..<24).contains(clock[0]), (0..<60).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        return Int64(days) * 86400 + clock[0] * 3600 + clock[1] * 60 + clock[2]
    }
}

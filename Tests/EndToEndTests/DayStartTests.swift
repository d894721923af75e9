import Foundation
import Testing
import TestSupport

/// `day_starts_at`: for someone whose day ends after midnight, a drink at 01:30 is the night before's,
/// in `status`, the daily limit, `stats` and the daily_totals view alike.
@Suite(.onTestThreads) struct DayStartTests {
    @Test func aDrinkAfterMidnightCountsForTheDayBeforeUntilTheDayStarts() async throws {
        try await withTemporaryDirectory { home in
            let night = JournalCLI(home: home, now: "2026-11-21T02:00:00+09:00", timeZone: "Asia/Tokyo")
            try night.writeSettings("day_starts_at = \"04:00\"\n")
            #expect(try night.run("add", "espresso", "--at", "2026-11-20T22:00:00+09:00").status == 0)
            #expect(try night.run("add", "black-tea", "--at", "01:30").status == 0)
            // At 02:00 the day that began at 04:00 yesterday is still today: both drinks count.
            let late = try #require(try night.json("status", "--json") as? [String: Any])
            #expect(late["today_mg"] as? Double == 111 && late["drinks_today"] as? Double == 2, "\(late)")

            let morning = JournalCLI(home: home, now: "2026-11-21T09:00:00+09:00", timeZone: "Asia/Tokyo")
            #expect(try morning.run("add", "small-coffee", "--at", "04:00").status == 0)
            let today = try #require(try morning.json("status", "--json") as? [String: Any])
            #expect(today["today_mg"] as? Double == 96 && today["drinks_today"] as? Double == 1, "\(today)")

            let stats = try #require(try morning.json("stats", "--days", "2", "--json") as? [String: Any])
            let days = try #require(stats["days"] as? [[String: Any]])
            #expect(days.map { $0["date"] as? String } == ["2026-11-20", "2026-11-21"])
            #expect(days.map { $0["caffeine_mg"] as? Double } == [111, 96], "\(days)")

            // The view counts from the day's start too, and follows the setting when it changes.
            let view = try morning.run("sql", "select day, caffeine_mg from daily_totals order by day", "--format", "csv").stdout.replacingOccurrences(of: "\r\n", with: "\n")
            #expect(view == "day,caffeine_mg\n2026-11-20,111\n2026-11-21,96\n", "\(view)")
            try morning.writeSettings("")
            #expect(try morning.run("status").status == 0)
            let midnight = try morning.run("sql", "select day, caffeine_mg from daily_totals order by day", "--format", "csv").stdout.replacingOccurrences(of: "\r\n", with: "\n")
            #expect(midnight == "day,caffeine_mg\n2026-11-20,64\n2026-11-21,143\n", "\(midnight)")
        }
    }

    /// The day clocks go back lasts 25 hours from 04:00 too.
    @Test func aDayStartsAtItsHourWhateverDaylightSavingDoes() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home, now: "2026-11-01T03:59:30-05:00", timeZone: "America/New_York")
            try cli.writeSettings("day_starts_at = \"04:00\"\n")
            // 2026-10-31 04:00 EDT to 2026-11-01 04:00 EST: 25 hours (clocks went back at 02:00 EDT).
            #expect(try cli.run("add", "espresso", "--at", "2026-10-31T04:00:00-04:00").status == 0)
            #expect(try cli.run("add", "espresso", "--at", "2026-11-01T03:59:00-05:00").status == 0)
            #expect(try cli.run("add", "espresso", "--at", "2026-10-31T03:59:00-04:00").status == 0)
            let status = try #require(try cli.json("status", "--json") as? [String: Any])
            #expect(status["drinks_today"] as? Double == 2, "\(status)")
            let stats = try #require(try cli.json("stats", "--days", "2", "--json") as? [String: Any])
            let days = try #require(stats["days"] as? [[String: Any]])
            #expect(days.map { $0["drinks"] as? Double } == [1, 2], "\(days)")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// Times are stored in UTC and read and shown in the local zone, daylight saving included.
@Suite(.onTestThreads) struct LocalTimeEndToEndTests {
    @Test func showsAndReadsLocalTimeInTheUsersZone() async throws {
        try await withTemporaryDirectory { home in
            let tokyo = JournalCLI(home: home, now: "2026-11-21T15:30:00+09:00", timeZone: "Asia/Tokyo")
            let added = try #require(try tokyo.json("add", "espresso", "--at", "9:00", "--json") as? [String: Any])
            #expect(added["consumed_at"] as? String == "2026-11-21T09:00:00+09:00")
            let utc = JournalCLI(home: home, now: "2026-11-21T06:30:00Z", timeZone: "UTC")
            let seen = try #require(try utc.json("list", "--json") as? [[String: Any]])
            #expect(seen.first?["consumed_at"] as? String == "2026-11-21T00:00:00+00:00")
            let stored = try utc.run("sql", "select consumed_at_ms from history", "--format", "csv").stdout
            #expect(stored.contains("1795219200000"))
        }
    }

    @Test func refusesAnHourThatHappenedTwiceAndOneThatNeverHappened() async throws {
        try await withTemporaryDirectory { home in
            let fallBack = JournalCLI(home: home, now: "2026-11-01T12:00:00-05:00", timeZone: "America/New_York")
            let twice = try fallBack.run("add", "espresso", "--at", "1:30am")
            #expect(twice.status == 65)
            #expect(twice.stderr.contains("2026-11-01T01:30:00-04:00 or 2026-11-01T01:30:00-05:00"))
            #expect(try fallBack.run("add", "espresso", "--at", "2026-11-01T01:30:00-05:00").status == 0)

            let springForward = JournalCLI(home: home, now: "2026-03-08T12:00:00-04:00", timeZone: "America/New_York")
            let never = try springForward.run("add", "espresso", "--at", "2:30am")
            #expect(never.status == 65)
            #expect(never.stderr.contains("clocks skipped"))
        }
    }

    /// The shortest half-life reads a 24-hour window, and the day the clocks go back lasts 25 hours:
    /// today's total still counts the drink of its first hour.
    @Test func todayIsTheWholeLocalDayWhenItLasts25Hours() async throws {
        try await withTemporaryDirectory { home in
            let late = JournalCLI(home: home, now: "2026-11-01T23:30:00-05:00", timeZone: "America/New_York")
            try FileManager.default.createDirectory(atPath: home + "/.config/journal", withIntermediateDirectories: true)
            try "half_life_hours = 1\n".write(toFile: home + "/.config/journal/config.toml", atomically: true, encoding: .utf8)
            #expect(try late.run("add", "espresso", "--at", "2026-11-01T00:15:00-04:00").status == 0)
            #expect(try late.run("add", "black-tea", "--at", "23:00").status == 0)
            let status = try #require(try late.json("status", "--json") as? [String: Any])
            #expect(status["drinks_today"] as? Double == 2, "\(status)")
            #expect(status["today_mg"] as? Double == 111, "\(status)")
        }
    }
}

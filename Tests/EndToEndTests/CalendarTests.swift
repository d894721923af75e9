import Foundation
import Testing
import TestSupport

/// `stats --calendar`: the past 52 weeks, a column per week and a row per weekday, each day shaded
/// by its total against the limit; the same numbers in JSON.
@Suite(.onTestThreads) struct CalendarTests {
    @Test func aYearOfDaysShadedByTheLimit() async throws {
        try await withTemporaryDirectory { home in
            // Saturday 2026-11-21.
            let cli = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            try cli.run("add", "espresso", "--at", "2026-11-21T09:00:00Z")  // 64: up to a quarter
            try cli.run("add", "energy-shot", "--at", "2026-11-16T09:00:00Z")  // Monday, 200: up to half
            try cli.run("add", "quad-espresso", "--at", "2026-11-16T10:00:00Z")  // 456 in all: over
            try cli.run("add", "large-coffee", "--at", "2025-11-17T09:00:00Z")  // the first Monday shown, 192
            try cli.run("add", "espresso", "--at", "2025-11-16T09:00:00Z")  // a day before it: not shown

            let json = try #require(try cli.json("stats", "--calendar", "--json") as? [String: Any])
            #expect(json["from"] as? String == "2025-11-17" && json["to"] as? String == "2026-11-21")
            let days = try #require(json["days"] as? [[String: Any]])
            #expect(days.count == 52 * 7 + 6)
            let byDate = Dictionary(uniqueKeysWithValues: days.map { ($0["date"] as! String, $0) })
            #expect(byDate["2026-11-16"]?["caffeine_mg"] as? Double == 456 && byDate["2026-11-16"]?["shade"] as? String == "over-limit")
            #expect(byDate["2026-11-21"]?["shade"] as? String == "up-to-quarter")
            #expect(byDate["2025-11-17"]?["shade"] as? String == "up-to-half")
            #expect(json["days_with_drinks"] as? Double == 3 && json["days_over_limit"] as? Double == 1)
            // The same numbers as the days of plain stats.
            let week = try #require(try cli.json("stats", "--days", "7", "--json") as? [String: Any])
            for day in try #require(week["days"] as? [[String: Any]]) {
                #expect(byDate[day["date"] as! String]?["caffeine_mg"] as? Double == day["caffeine_mg"] as? Double)
            }

            // Rows are weekdays from Monday, columns weeks: the last column ends on Saturday.
            let text = try cli.run("stats", "--calendar").stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let rows = Array(text[3..<10])
            #expect(rows[0].hasPrefix("Mon ▒") && rows[0].hasSuffix("█"), "\(rows[0])")
            #expect(rows[5].hasSuffix("░"), "\(rows[5])")
            #expect(rows.map { $0.count - 4 } == [53, 53, 53, 53, 53, 53, 52], "\(rows)")
            // Months named over the week they start in: December 1st is in the third column; November,
            // which the calendar starts in, has no room before it.
            #expect(text[2].hasPrefix("      Dec ") && text[2].hasSuffix("Nov"), "\(text[2])")
            #expect(!text.joined().contains("\u{1B}"))

            // On a terminal the shades are coloured too, and not under NO_COLOR.
            let command = "\(JournalCLI.binary) stats --calendar"
            let coloured = try ProcessRunner.run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: cli.environment)
            #expect(coloured.stdout.contains("\u{1B}[31m█"), "\(coloured.stdout)")
            var plain = cli.environment
            plain["NO_COLOR"] = "1"
            let uncoloured = try ProcessRunner.run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: plain)
            #expect(!uncoloured.stdout.contains("\u{1B}[") && uncoloured.stdout.contains("Mon ▒"), "\(uncoloured.stdout)")
        }
    }

    @Test func calendarAndDaysAreOneOrTheOther() async throws {
        try await withTemporaryDirectory { home in
            let result = try JournalCLI(home: home).run("stats", "--calendar", "--days", "30")
            #expect(result.status == 64 && result.stderr.contains("give it or --days, not both"))
        }
    }
}

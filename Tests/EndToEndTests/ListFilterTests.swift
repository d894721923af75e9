import Foundation
import Testing
import TestSupport

/// `list` as people filter it: by days (yesterday, monday, a date, a day of a month), by drink and by
/// words of the note; and a time the clocks skipped answered with the offsets that name it.
@Suite(.onTestThreads) struct ListFilterTests {
    @Test func listFiltersByDaysDrinksAndNotes() async throws {
        try await withTemporaryDirectory { home in
            // Saturday 2026-11-21, 15:30 UTC.
            let journal = JournalCLI(home: home, now: "2026-11-21T15:30:00Z", timeZone: "UTC")
            for (drink, at, note) in [
                ("espresso", "2026-11-14T09:00", "office"), ("tea", "2026-11-16T08:00", "Café with Ann"),
                ("espresso", "20 nov 8:00", ""), ("cola", "yesterday 21:00", "late"), ("espresso", "9:00", "at the CAFÉ"),
            ] {
                let added = try journal.run(["add", drink, "--at", at] + (note.isEmpty ? [] : ["--note", note]))
                #expect(added.status == 0, "\(added.stderr)")
            }
            func drinks(_ arguments: String...) throws -> [String] {
                let listed = try journal.run(["list", "--json"] + arguments)
                #expect(listed.status == 0, "\(arguments): \(listed.stderr)")
                let array = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
                return array.compactMap { ($0["consumed_at"] as? String)?.prefix(10) }.map(String.init)
            }
            #expect(try drinks("--since", "yesterday") == ["2026-11-20", "2026-11-20", "2026-11-21"])
            #expect(try drinks("--since", "monday") == ["2026-11-16", "2026-11-20", "2026-11-20", "2026-11-21"])
            #expect(try drinks("--since", "2026-11-16", "--until", "2026-11-20") == ["2026-11-16"])
            #expect(try drinks("--since", "20 nov", "--until", "today") == ["2026-11-20", "2026-11-20"])
            #expect(try drinks("--drink", "espresso") == ["2026-11-14", "2026-11-20", "2026-11-21"])
            #expect(try drinks("--drink", "tea") == ["2026-11-16"], "an alias finds its drink")
            #expect(try drinks("--note", "café") == ["2026-11-16", "2026-11-21"], "case aside")
            #expect(try drinks("--note", "café ann") == ["2026-11-16"], "each word")
            #expect(try drinks("--note", "café", "--limit", "1") == ["2026-11-21"], "the latest of those that match")
            let none = try journal.run("list", "--drink", "cola", "--since", "today")
            #expect(none.stdout == "No drinks match.\n")
            let unknown = try journal.run("list", "--drink", "expresso")
            #expect(unknown.status != 0 && unknown.stderr.contains("Did you mean 'espresso'?"), "\(unknown.stderr)")
            // A day alone is a bound, not a drink's time.
            let dayAlone = try journal.run("add", "espresso", "--at", "yesterday")
            #expect(dayAlone.status == 65 && dayAlone.stderr.contains("a day needs a time of day"), "\(dayAlone.stderr)")
        }
    }

    /// Today is the person's day: at 01:30 with days starting at 04:00, it began yesterday at 04:00.
    @Test func todayIsThePersonsDay() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-21T01:30:00Z", timeZone: "UTC")
            try journal.writeSettings("day_starts_at = \"04:00\"\n")
            try journal.run("add", "espresso", "--at", "yesterday 22:00")
            try journal.run("add", "tea", "--at", "yesterday 3:00")
            let today = try #require(try journal.json("list", "--since", "today", "--json") as? [[String: Any]])
            #expect(today.map { $0["drink"] as? String } == ["espresso"], "\(today)")
        }
    }

    /// A drink of one's own that was removed since still finds the drinks logged with it.
    @Test func aRemovedDrinkOfOnesOwnStillFilters() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("drinks", "add", "oat-latte", "--mg", "130")
            try journal.run("add", "oat-latte")
            try journal.run("drinks", "rm", "oat-latte")
            let found = try journal.run("list", "--drink", "oat-latte")
            #expect(found.status == 0 && found.stdout.contains("oat-latte"), "\(found.stdout)\(found.stderr)")
        }
    }

    @Test func aTimeTheClocksSkippedIsAnsweredWithTheOffsetsThatNameIt() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-03-10T12:00:00-04:00", timeZone: "America/New_York")
            for typed in ["8 mar 2:30", "2026-03-08 02:30"] {
                let skipped = try journal.run("add", "espresso", "--at", typed)
                #expect(skipped.status == 65, "\(skipped.stderr)")
                #expect(skipped.stderr.contains("Try, for example: 2026-03-08T02:30-05:00 or 2026-03-08T02:30-04:00"), "\(skipped.stderr)")
            }
            // What it offers is taken.
            #expect(try journal.run("add", "espresso", "--at", "2026-03-08T02:30-05:00").status == 0)
        }
    }
}

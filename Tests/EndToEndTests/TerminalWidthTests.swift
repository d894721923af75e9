import Foundation
import Testing
import TestSupport

/// Every line status and stats draw fits the terminal they draw on: charts narrow, words wrap, and
/// what is left out is said.
@Suite(.onTestThreads) struct TerminalWidthTests {
    /// What a terminal `columns` wide shows of `arguments`, its colour codes taken out.
    func shown(_ journal: JournalCLI, _ arguments: String, columns: Int) throws -> [String] {
        var environment = journal.environment
        environment["TERM"] = "xterm"
        let result = try ProcessRunner.run(
            "/usr/bin/script", ["-qec", "stty cols \(columns); \(JournalCLI.binary) \(arguments)", "/dev/null"], environment: environment)
        #expect(result.status == 0, "\(result.stdout)")
        let plain = result.stdout.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        return plain.replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A month that starts in the week of today is labelled within the width, or not at all.
    @Test(arguments: [50, 58, 80])
    func theCalendarsMonthsFit(columns: Int) async throws {
        try await withTemporaryDirectory { home in
            // Tuesday 2026-12-01 is in the last week drawn.
            let journal = JournalCLI(home: home, now: "2026-12-02T12:00:00Z")
            try journal.run("add", "espresso")
            for line in try shown(journal, "stats --calendar", columns: columns) {
                #expect(line.count < columns, "at \(columns) columns: '\(line)' is \(line.count) wide")
            }
        }
    }

    @Test(arguments: [50, 36, 80])
    func statusAndStatsFitTheTerminal(columns: Int) async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            try journal.writeSettings("bedtime = \"23:00\"\n")
            for (drink, at) in [("espresso", "9:00"), ("tea", "yesterday 10:00"), ("double-espresso", "3 days ago 8am"), ("cola", "40 days ago 9am")] {
                try journal.run("add", drink, "--at", at, "--note", "a note long enough to need wrapping somewhere")
            }
            for command in ["status", "stats", "stats --calendar", "list"] {
                let lines = try shown(journal, command, columns: columns)
                for line in lines {
                    #expect(line.count <= columns, "\(command) at \(columns) columns: '\(line)' is \(line.count) wide")
                }
                #expect(lines.count > 5, "\(command): \(lines)")
            }
            let status = try shown(journal, "status", columns: columns).joined(separator: "\n")
            #expect(status.contains("now 15:30") && status.contains("mg sleep"), "the chart is drawn, narrower: \(status)")
            // Read as words, whatever lines they were wrapped on.
            let calendar = try shown(journal, "stats --calendar", columns: columns).joined(separator: " ")
                .split(separator: " ").joined(separator: " ")
            if columns < 58 {
                let shownWeeks = columns - 1 - 4
                #expect(calendar.contains("The past \(shownWeeks) weeks") && calendar.contains("a terminal 58 columns wide shows 52 weeks"), "\(calendar)")
            } else {
                #expect(calendar.contains("The past 52 weeks"), "\(calendar)")
            }
        }
    }

    /// The chart's scale holds the "Caffeine now" printed above it, at every width: a drink just had
    /// is at its peak now, above every column's level (each taken in the middle of its time).
    @Test(arguments: [50, 64, 80])
    func theChartsTopHoldsTheLevelNow(columns: Int) async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            try journal.run("add", "espresso", "--at", "9:00")
            try journal.run("add", "quad-espresso")
            let lines = try shown(journal, "status", columns: columns)
            let headline = try #require(lines.first { $0.hasPrefix("Caffeine now") })
            let now = try #require(Double(headline.split(separator: " ")[2]), "\(headline)")
            let topLine = try #require(lines.first { $0.hasPrefix("  │") }, "\(lines)")
            let top = try #require(Double(topLine.components(separatedBy: "│ ").last?.split(separator: " ").first ?? ""), "\(topLine)")
            #expect(top >= now, "at \(columns) columns the chart's top is \(top) mg, under the \(now) mg now: \(lines)")
            #expect(top - now < 1, "and not higher than the level needs: \(top) against \(now)")
        }
    }

    /// A journal without drinks draws no chart of a level that was never anything, says how to add
    /// one, and reading it makes no file.
    @Test func anEmptyJournalsStatusDrawsNoChartAndMakesNoFile() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            let database = home + "/.local/share/journal/journal.db"
            let lines = try shown(journal, "status", columns: 80)
            #expect(lines.contains { $0.hasPrefix("Caffeine now  0 mg") }, "\(lines)")
            #expect(lines.contains("No drinks yet: journal add espresso records one (journal drinks lists them)."), "\(lines)")
            #expect(!lines.contains { $0.contains("│") || $0.contains("mg sleep") }, "no chart: \(lines)")
            let json = try #require(try journal.json("status", "--json") as? [String: Any])
            #expect(json["current_mg"] as? Double == 0 && json["sync_state"] as? String == "not-joined", "\(json)")
            #expect(try journal.run("status", "--format", "{current_mg:.0f} mg").stdout == "0 mg\n")
            #expect(!FileManager.default.fileExists(atPath: database), "status made the journal's file")
            // Once it has a drink, the chart; once none counts any more, no flat line either.
            try journal.run("add", "espresso", "--at", "9:00")
            #expect(try shown(journal, "status", columns: 80).contains { $0.hasSuffix("mg sleep") })
            let later = JournalCLI(home: home, now: "2026-11-28T15:30:00Z")
            let week = try shown(later, "status", columns: 80)
            #expect(!week.contains { $0.contains("│") } && !week.contains { $0.hasPrefix("No drinks yet") }, "\(week)")
        }
    }

    /// `drinks` says each drink's serving and where its figure is from, within 80 columns.
    @Test func theCatalogShowsServingsWithinTheWidth() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let lines = try shown(journal, "drinks", columns: 80)
            for line in lines { #expect(line.count < 80, "'\(line)' is \(line.count) wide") }
            #expect(lines.first?.hasPrefix("DRINK") == true && lines.first?.contains("SERVING") == true, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("energy-drink") && $0.contains(" 80 ") && $0.contains("250 ml can") && $0.hasSuffix("EFSA 2015") })
            #expect(lines.contains { $0.hasPrefix("espresso ") && $0.contains("single shot 30 ml") })
            for drink in ["latte", "cappuccino", "americano", "flat-white", "cold-brew", "matcha", "mate"] {
                #expect(lines.contains { $0.hasPrefix(drink + " ") }, "\(drink) is in the catalog")
            }
            let json = try #require(try journal.json("drinks", "--json") as? [[String: Any]])
            #expect(json.allSatisfy { ($0["serving"] as? String)?.isEmpty == false }, "\(json)")
        }
    }

    /// A line never ends in a number whose unit begins the next ("half-life 2.9⏎ h)", "over 50⏎ mg"),
    /// at any width.
    @Test func aNumberKeepsItsUnitOnItsLine() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            try journal.writeSettings("bedtime = \"23:00\"\nhalf_life_hours = 2.9\n")
            try journal.run("add", "double-espresso", "--at", "14:00")
            try journal.run("add", "espresso", "--at", "yesterday 9:00")
            let units: Set<String> = ["mg", "mg/L", "h", "min", "ml", "kg", "cups"]
            for columns in stride(from: 30, through: 80, by: 1) {
                for command in ["status", "stats"] {
                    let lines = try shown(journal, command, columns: columns)
                    for (before, line) in zip(lines, lines.dropFirst()) {
                        let first = line.split(separator: " ").first.map { String($0.prefix { !",.;:)".contains($0) }) } ?? ""
                        let ended = before.trimmingCharacters(in: .whitespaces).last?.isNumber == true
                        #expect(!(ended && units.contains(first)), "\(command) at \(columns) columns: '\(before)' / '\(line)'")
                    }
                }
            }
        }
    }

    /// `profile`'s factor lines keep their indent under the half-life, wrapped or not.
    @Test(arguments: [50, 80])
    func theProfilesFactorLinesKeepTheirIndent(columns: Int) async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("profile", "weight_kg", "70")
            try journal.run("profile", "conditions", "smoker,oral-contraceptives")
            let lines = try shown(journal, "profile", columns: columns)
            for factor in ["5 hours", "x 0.58", "x 1.73"] {
                let line = try #require(lines.first { $0.contains(factor + " ") }, "\(lines)")
                #expect(line.hasPrefix("  " + factor), "at \(columns) columns: '\(line)'")
            }
        }
    }

    /// `list` on a narrow terminal wraps a note, beside its row or under it, and cuts none of it.
    @Test(arguments: [40, 50, 70])
    func aNoteIsWrappedNotCut(columns: Int) async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            let note = "a note long enough to need wrapping somewhere in a narrow terminal"
            try journal.run("add", "espresso", "--at", "9:00", "--note", note)
            let lines = try shown(journal, "list", columns: columns)
            for line in lines { #expect(line.count <= columns, "'\(line)' is \(line.count) wide") }
            #expect(!lines.contains { $0.contains("…") }, "\(lines)")
            let words = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
            #expect(words.contains(note), "\(lines)")
        }
    }

    /// `sleep` at 50 columns keeps the caffeine column, tells sources apart by their whole names,
    /// and wraps the scatter's title.
    @Test func sleepKeepsItsCaffeineColumnWhenNarrow() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-20T12:00:00Z")
            let csv = """
                start,end,stage,source
                2026-11-10T22:00:00Z,2026-11-11T06:00:00Z,in_bed,Phone
                2026-11-10T22:20:00Z,2026-11-11T06:30:00Z,core,Oura Ring Gen3
                2026-11-12T22:30:00Z,2026-11-13T07:00:00Z,in_bed,Phone
                2026-11-12T23:00:00Z,2026-11-13T07:00:00Z,asleep,Oura Ring Gen3 Horizon

                """
            try csv.write(toFile: home + "/sleep.csv", atomically: true, encoding: .utf8)
            #expect(try journal.run("import", home + "/sleep.csv").status == 0)
            try journal.run("add", "double-espresso", "--at", "2026-11-10T18:00")
            let lines = try shown(journal, "sleep", columns: 50)
            for line in lines { #expect(line.count <= 50, "'\(line)' is \(line.count) wide") }
            #expect(lines.contains { $0.hasPrefix("NIGHT") && $0.contains("CAFFEINE") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("2026-11-10") && $0.contains(" mg ") }, "\(lines)")
            #expect(lines.contains { $0.hasSuffix("Oura Ring Gen3") } && lines.contains { $0.hasSuffix("Oura Ring Gen3 Horizon") }, "\(lines)")
            #expect(!lines.contains { $0.contains("…") }, "\(lines)")
            #expect(lines.contains("To fall asleep (min) against caffeine at"), "\(lines)")
        }
    }
}

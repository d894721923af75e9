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
}

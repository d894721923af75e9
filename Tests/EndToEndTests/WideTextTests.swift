import Foundation
import Testing
import TestSupport

/// Tables line up by the columns text takes, in any script, and on a terminal a note too wide for a
/// line wraps, broken at a character boundary where it has no space.
@Suite(.onTestThreads) struct WideTextTests {
    @Test func listLinesUpWideNotesAndCutsThemToTheTerminal() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home)
            for note in ["抹茶ラテと카페라테", "cafe\u{301} cre\u{300}me au lait", "plain"] {
                #expect(try cli.run("add", "espresso", "--note", note).status == 0)
            }
            try cli.run("add", "double-espresso")
            // To a pipe: nothing is cut, and a column after wide text starts at the same column on every line.
            #expect(try cli.run("list").stdout.contains("抹茶ラテと카페라테\n"))
            let table = try cli.run("sql", "select note, caffeine_mg from history order by consumed_at_ms, id").stdout
            let lines = table.split(separator: "\n").map(String.init)
            #expect(lines.count == 5, "\(table)")
            #expect(Set(lines.dropFirst().map { Self.columns(String($0[..<$0.lastIndex(of: " ")!])) }).count == 1, "\(table)")

            // On a terminal 60 columns wide: every line fits, and no note is cut.
            let shown = try ProcessRunner.run(
                "/usr/bin/script", ["-qec", "stty cols 60; \(JournalCLI.binary) list", "/dev/null"], environment: cli.environment)
            let shownLines = shown.stdout.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
                .map { $0.replacingOccurrences(of: "\u{1B}[2m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "") }
            for line in shownLines { #expect(Self.columns(line) <= 60, "\(line)") }
            #expect(!shownLines.contains { $0.contains("…") } && shownLines.contains { $0.hasSuffix("抹茶ラテと카페라테") }, "\(shownLines)")
            #expect(shownLines.contains { $0.hasSuffix("plain") })
        }
    }

    /// Columns as a terminal counts them: two for East Asian wide characters, none for combining marks.
    static func columns(_ line: String) -> Int {
        line.unicodeScalars.reduce(0) { sum, scalar in
            switch scalar.value {
            case 0x300...0x36F: return sum
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60: return sum + 2
            default: return sum + 1
            }
        }
    }
}

import Foundation
import Testing
import TestSupport

/// Help is written for the terminal it is shown on: at 80 columns no line of prose ends before the
/// width makes it (a sentence broken where the source broke it), and no option's values are listed
/// twice.
@Suite(.onTestThreads) struct HelpLayoutTests {
    /// The lines of `help` that end early: a line of prose followed, in the same paragraph, by one
    /// whose first word would have fitted after it.
    static func linesEndingEarly(_ help: String, width: Int) -> [String] {
        var early: [String] = []
        // The prose before USAGE; lines indented are examples, laid out by hand.
        let prose = help.components(separatedBy: "\nUSAGE:").first ?? help
        let lines = prose.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (line, next) in zip(lines, lines.dropFirst()) {
            guard !line.isEmpty, !next.isEmpty, !line.hasPrefix(" "), !next.hasPrefix(" ") else { continue }
            let firstWord = next.split(separator: " ").first.map(String.init) ?? ""
            if line.count + 1 + firstWord.count <= width - 1 { early.append(line) }
        }
        return early
    }

    @Test func helpFillsItsLines() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            var environment = journal.environment
            environment["COLUMNS"] = "80"
            var pages: [(String, String)] = []
            for path in try [[]] + journal.commandPaths() {
                let result = try ProcessRunner.run(JournalCLI.binary, path + ["--help"], environment: environment)
                pages.append(("journal " + path.joined(separator: " "), result.stdout))
            }
            let daemon = URL(fileURLWithPath: JournalCLI.binary).deletingLastPathComponent().appendingPathComponent("journal-syncd").path
            pages.append(("journal-syncd", try ProcessRunner.run(daemon, ["--help"], environment: environment).stdout))
            // An option's values are listed once, by the parser.
            let daemonHelp = pages.last?.1 ?? ""
            #expect(daemonHelp.components(separatedBy: "critical").count == 2, "\(daemonHelp)")
            for (name, page) in pages {
                #expect(!page.isEmpty, "\(name)")
                let early = Self.linesEndingEarly(page, width: 80)
                #expect(early.isEmpty, "\(name): lines end before the width does:\n\(early.joined(separator: "\n"))")
            }
        }
    }
}

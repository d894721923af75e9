import Foundation
import Testing
import TestSupport

/// The README's quick start, run as it is written, on a fresh home where `make install` put the
/// programs: every line works, and what the reader is told to expect is what they see.
@Suite(.onTestThreads) struct QuickStartTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md").standardized.path

    /// The lines of the block under "## Quick start".
    static func quickStart() throws -> [String] {
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        let section = text.components(separatedBy: "## Quick start").dropFirst().first ?? ""
        let block = section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first ?? ""
        return block.split(separator: "\n").map(String.init)
    }

    /// In the afternoon and before breakfast: a time in the quick start must not be in the future.
    @Test(arguments: ["2026-11-21T15:30:00Z", "2026-11-21T05:00:00Z"])
    func theQuickStartWorksOnAFreshHome(now: String) async throws {
        try await withTemporaryDirectory { home in
            let lines = try Self.quickStart()
            #expect((8...12).contains(lines.count), "a quick start of about ten lines: \(lines)")
            // Where make install puts the programs.
            let bin = home + "/.local/bin"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            let products = URL(fileURLWithPath: JournalCLI.binary).deletingLastPathComponent().path
            for program in ["journal", "journal-syncd"] {
                try FileManager.default.createSymbolicLink(atPath: bin + "/" + program, withDestinationPath: products + "/" + program)
            }
            let environment = ["HOME": home, "PATH": "/usr/bin:/bin", "JOURNAL_NOW": now, "TZ": "UTC"]
            var said: [String] = []
            // One shell, as the reader's: the first line's PATH holds for the others.
            let script = home + "/quickstart.sh"
            try (["set -e"] + lines.flatMap { [$0, "echo '--- done'"] }).joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
            let result = try ProcessRunner.run("/bin/bash", [script], environment: environment)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            said = result.stdout.components(separatedBy: "--- done\n")
            #expect(said.count == lines.count + 1, "every line ran: \(result.stdout)\(result.stderr)")
            let all = result.stdout
            #expect(all.contains("Added medium-coffee 144 mg at 2026-11-2"), "\(all)")
            #expect(all.contains("Added black-tea 47 mg at 2026-11-21 ") && all.contains(" — with lunch"), "\(all)")
            #expect(all.contains("Caffeine now"), "\(all)")
            #expect(all.contains("bedtime is now 23:00"), "\(all)")
            #expect(all.contains("Made a new hub at \(home)/Sync/journal."), "\(all)")
            #expect(all.contains("JK2-"), "\(all)")
        }
    }
}

/// Every `journal` command README shows (in its `sh` and `console` blocks) is one the program takes as
/// written: run in order on a fresh home with a folder hub, none is a usage mistake (64), whatever
/// else it meets (an id or a file that is not there is the reader's). Those that need a server, a
/// key on stdin or a file written elsewhere are left out, as a test machine has none of them.
@Suite(.onTestThreads) struct ReadmeCommandsTests {
    static func commands() throws -> [String] {
        let text = try String(contentsOfFile: QuickStartTests.readme, encoding: .utf8)
        var inBlock = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inBlock = line == "```sh" || line == "```console"; continue }
            guard inBlock else { continue }
            let command = line.hasPrefix("$ ") ? String(line.dropFirst(2)) : String(line)
            if command.hasPrefix("journal ") { lines.append(command) }
        }
        return lines
    }

    @Test func everyCommandReadmeShowsIsTakenAsWritten() async throws {
        try await withTemporaryDirectory { home in
            let all = try Self.commands()
            let runnable = all.filter { line in
                !["://", "--key-file -", " > ", "&&", "~/Downloads"].contains { line.contains($0) }
            }
            #expect(all.count >= 40 && runnable.count >= 30, "\(runnable.count) of \(all.count): \(runnable)")
            let bin = URL(fileURLWithPath: JournalCLI.binary).deletingLastPathComponent().path
            let environment = ["HOME": home, "PATH": bin + ":/usr/bin:/bin", "JOURNAL_NOW": "2026-11-21T15:30:00Z", "TZ": "UTC"]
            for line in runnable {
                let result = try ProcessRunner.run("/bin/bash", ["-c", line], environment: environment)
                let mistaken = ["Unknown option", "is not a command", "Missing expected argument", "Unexpected argument"]
                #expect(result.status != 64 && !mistaken.contains { result.stderr.contains($0) }, "README's '\(line)': \(result.status) \(result.stderr)")
            }
        }
    }
}

/// The README's table of commands lists every command and subcommand the program has.
@Suite(.onTestThreads) struct CommandTableTests {
    /// Every link of README's contents leads to one of its headings (GitHub's anchors: the heading in
    /// lowercase, its punctuation but `-` left out, its spaces `-`).
    @Test func theContentsLeadToHeadings() throws {
        let text = try String(contentsOfFile: QuickStartTests.readme, encoding: .utf8)
        let anchors = Set(text.split(separator: "\n").filter { $0.hasPrefix("## ") || $0.hasPrefix("### ") }.map { line in
            String(line.drop { $0 == "#" }.dropFirst().lowercased().compactMap { $0 == " " ? "-" : ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : nil })
        })
        let contents = try #require(text.components(separatedBy: "Contents: ").dropFirst().first?.components(separatedBy: "\n\n").first)
        let links = contents.components(separatedBy: "](#").dropFirst().map { String($0.prefix { $0 != ")" }) }
        #expect(links.count >= 15, "\(links)")
        for link in links { #expect(anchors.contains(link), "README's contents link #\(link) leads to no heading") }
    }

    /// README names the CSV export's columns as `journal export --format csv` writes them.
    @Test func theExportsColumnsAreInTheReadme() async throws {
        try await withTemporaryDirectory { home in
            let header = try JournalCLI(home: home).run("export", "--format", "csv").stdout.split(separator: "\r\n").first.map(String.init) ?? ""
            #expect(header.hasPrefix("id,drink"), "\(header)")
            let text = try String(contentsOfFile: QuickStartTests.readme, encoding: .utf8)
            #expect(text.contains("`\(header)`"), "README lacks the export's columns, \(header)")
        }
    }

    @Test func everyCommandIsInTheTable() async throws {
        try await withTemporaryDirectory { home in
            let text = try String(contentsOfFile: QuickStartTests.readme, encoding: .utf8)
            let table = text.split(separator: "\n").filter { $0.hasPrefix("| `journal ") }.joined(separator: "\n")
            for path in try JournalCLI(home: home).commandPaths() where path != ["drinks", "list"] {
                #expect(table.contains("`journal \(path.joined(separator: " "))"), "README's table lacks journal \(path.joined(separator: " "))")
            }
        }
    }
}

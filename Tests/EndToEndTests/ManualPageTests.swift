import Foundation
import Testing
import TestSupport

/// `man journal`: pages generated from the command definitions by the Makefile's own rule, one per
/// command and one for the daemon, found by man through PATH.
@Suite(.onTestThreads) struct ManualPageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    /// The pages `make man-pages` writes for the built binaries, in a folder of the test's own.
    func pages(in folder: String) throws -> String {
        let output = folder + "/man1"
        let made = try ProcessRunner.run(
            "/usr/bin/make", ["-s", "-C", Self.repository, "man-pages", "MAN_BIN=\(ProcessRunner.productsFolder)", "MAN_OUT=\(output)",
                              "MAN_DATE=2026-11-22"],
            environment: ["HOME": folder])
        #expect(made.status == 0, "make man-pages: \(made.stdout)\(made.stderr) (generate-manual is built by make test)")
        return output
    }

    @Test func everyCommandHasItsPageWithItsSections() async throws {
        try await withTemporaryDirectory { folder in
            let output = try pages(in: folder)
            let paths = try JournalCLI(home: folder).commandPaths()
            #expect(paths.contains(["sync", "init"]) && paths.contains(["add"]))
            for path in [[]] + paths {
                let page = output + "/" + (["journal"] + path).joined(separator: "-") + ".1"
                let text = try String(contentsOfFile: page, encoding: .utf8)
                #expect(text.contains(".Sh NAME") && text.contains(".Sh SYNOPSIS") && text.contains(".Sh DESCRIPTION"), "\(page)")
                #expect(text.contains(#".Nm "\#((["journal"] + path).joined(separator: " "))""#) || path.isEmpty, "\(page)")
                let rendered = try ProcessRunner.run("/usr/bin/man", ["--warnings", "-l", page], environment: ["MANWIDTH": "80"])
                #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(page): \(rendered.stderr)")
            }
            let daemon = try String(contentsOfFile: output + "/journal-syncd.1", encoding: .utf8)
            // It has no subcommands, and its page lists none.
            #expect(!daemon.contains("subcommand") && !daemon.contains(".It Em help"), "\(daemon)")
            #expect(daemon.contains(".Sh NAME") && daemon.contains("--interval"))
            for section in ["SIGNALS", "\"THE SERVICE\"", "FILES", "\"EXIT STATUS\""] {
                #expect(daemon.contains(".Sh \(section)"), "journal-syncd(1) has no \(section)")
            }
            #expect(daemon.contains("SIGUSR1") && daemon.contains("journal-sync.service") && daemon.contains("syncd-lock"))
            // journal(1): every command with an example line, the exit statuses, the files.
            let journal = try String(contentsOfFile: output + "/journal.1", encoding: .utf8)
            let commands = journal.components(separatedBy: ".Sh COMMANDS").last?.components(separatedBy: ".Sh ENVIRONMENT").first ?? ""
            for path in paths where path.first != "help" {
                #expect(commands.contains(path.last ?? ""), "journal(1) lists no \(path.joined(separator: " "))")
            }
            #expect(commands.components(separatedBy: ".Dl journal ").count > 8, "examples")
            for status in ["64", "65", "78"] { #expect(journal.contains(".It \(status)\n"), "exit status \(status)") }
            #expect(journal.contains(".Sh FILES") && journal.contains("config.toml"))
        }
    }

    /// Installed under PREFIX/share/man, the pages are found for a PREFIX/bin on PATH, without MANPATH.
    @Test func manFindsThePagesOfTheBinariesOnPath() async throws {
        try await withTemporaryDirectory { folder in
            let output = try pages(in: folder)
            let prefix = folder + "/prefix"
            try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: prefix + "/share/man", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: output, toPath: prefix + "/share/man/man1")
            try FileManager.default.copyItem(atPath: JournalCLI.binary, toPath: prefix + "/bin/journal")
            let environment = ["PATH": prefix + "/bin:/usr/bin:/bin", "HOME": folder]
            for (words, page) in [(["journal"], "journal.1"), (["journal", "add"], "journal-add.1"), (["journal-sync-init"], "journal-sync-init.1")] {
                let found = try ProcessRunner.run("/usr/bin/man", ["-w"] + words, environment: environment)
                #expect(found.stdout.contains(prefix + "/share/man/man1/" + page), "man -w \(words): \(found.stdout)\(found.stderr)")
            }
        }
    }
}

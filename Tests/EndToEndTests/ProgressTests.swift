import Foundation
import Testing
import TestSupport

/// Long work shows its progress on stderr when stderr is a terminal, and nothing of it reaches a pipe.
@Suite struct ProgressTests {
    /// Runs `arguments` with a terminal (`script` gives it one): what the terminal showed.
    func onTerminal(_ machine: JournalCLI, _ arguments: [String]) throws -> ProcessResult {
        let command = ([JournalCLI.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try ProcessRunner.run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: machine.environment)
    }

    @Test func aLongImportAndAFirstSyncShowProgressOnATerminalOnly() async throws {
        try await withTemporaryDirectory { folder in
            let export = folder + "/export.json"
            try SyncCrashTests.export(from: 0, count: 100_000).write(toFile: export, atomically: true, encoding: .utf8)
            let machine = JournalCLI(home: folder + "/a")
            let shown = try onTerminal(machine, ["import", export])
            #expect(shown.status == 0, "\(shown.stdout)")
            #expect(shown.stdout.contains("Importing ["), "\(shown.stdout.suffix(300))")
            // The line is cleared before the result is printed.
            #expect(shown.stdout.contains("\r\u{1B}[2KImported 100000 drinks."), "\(shown.stdout.suffix(300))")

            let piped = try JournalCLI(home: folder + "/b").run("import", export)
            #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr.prefix(300))")
            #expect(piped.stdout == "Imported 100000 drinks.\n")

            try FileManager.default.createDirectory(atPath: folder + "/hub", withIntermediateDirectories: true)
            #expect(try machine.run("sync", "init", "--folder", folder + "/hub").status == 0)
            let synced = try onTerminal(machine, ["sync"])
            #expect(synced.status == 0, "\(synced.stdout.suffix(300))")
            #expect(synced.stdout.contains("Syncing  "), "\(synced.stdout.suffix(300))")
            #expect(synced.stdout.contains("changes published"), "\(synced.stdout.suffix(300))")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// Long work shows its progress on stderr when stderr is a terminal, and nothing of it reaches a pipe.
@Suite(.onTestThreads) struct ProgressTests {
    /// Runs `arguments` on a terminal while another process holds the journal's write lock: the
    /// command's first write waits (SQLite's busy handler sleeping, seen in /proc), and the lock is let
    /// go a second after that. The progress line appears after half a second of work, so the work is
    /// made to last longer than that on any machine; a busy machine only makes it longer, and the lock
    /// is held for as long as the command takes to reach its first write. What the terminal showed,
    /// and the command's exit status.
    func onTerminalHeld(_ machine: JournalCLI, _ arguments: [String], in folder: String) async throws -> (shown: String, status: Int32?) {
        let lock = try HeldWriteLock(database: machine.databasePath)
        let terminal = try TerminalSession(
            [JournalCLI.binary] + arguments, environment: machine.environment, screenPath: folder + "/terminal-\(arguments[0]).txt")
        let waiting = await lock.release(onceWaitedBy: terminal.process.processIdentifier, pause: .seconds(1))
        #expect(waiting, "journal \(arguments.joined(separator: " ")) never waited for the write lock: \(terminal.shown.suffix(300))")
        let status = try await terminal.exitStatus()
        return (terminal.shown, status)
    }

    @Test func aLongImportAndAFirstSyncShowProgressOnATerminalOnly() async throws {
        try await withTemporaryDirectory { folder in
            let export = folder + "/export.json"
            try SyncCrashTests.export(from: 0, count: 100_000).write(toFile: export, atomically: true, encoding: .utf8)
            let machine = JournalCLI(home: folder + "/a")
            #expect(try machine.run("add", "espresso", "--note", "makes the journal").status == 0)
            let (shown, status) = try await onTerminalHeld(machine, ["import", export], in: folder)
            #expect(status == 0, "\(shown.suffix(300))")
            #expect(shown.contains("Importing ["), "\(shown.suffix(300))")
            // The line is cleared before the result is printed.
            #expect(shown.contains("\r\u{1B}[2KImported 100000 drinks."), "\(shown.suffix(300))")

            let piped = try JournalCLI(home: folder + "/b").run("import", export)
            #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr.prefix(300))")
            #expect(piped.stdout == "Imported 100000 drinks.\n")

            try FileManager.default.createDirectory(atPath: folder + "/hub", withIntermediateDirectories: true)
            #expect(try machine.run("sync", "init", "--folder", folder + "/hub").status == 0)
            let (synced, syncStatus) = try await onTerminalHeld(machine, ["sync"], in: folder)
            #expect(syncStatus == 0, "\(synced.suffix(300))")
            #expect(synced.contains("Syncing  "), "\(synced.suffix(300))")
            #expect(synced.contains("changes published"), "\(synced.suffix(300))")
        }
    }
}

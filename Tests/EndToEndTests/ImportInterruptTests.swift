import Foundation
import Glibc
import Testing
import TestSupport

/// Ctrl-C during an import ends it at once with nothing imported, and says so; the journal is as it
/// was (its transaction never committed).
@Suite(.onTestThreads) struct ImportInterruptTests {
    /// Whether `pid` catches SIGINT, from /proc (the handler is set once the import begins).
    static func catchesInterrupt(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << (UInt64(SIGINT) - 1)) != 0
    }

    @Test func anInterruptedImportImportsNothingAndSaysSo() async throws {
        try await withTemporaryDirectory { folder in
            let journal = JournalCLI(home: folder + "/home", now: "2026-11-21T15:30:00Z")
            try journal.run("add", "espresso", "--at", "9:00")
            let before = try journal.fingerprint()
            // The export comes through a pipe held open: the import waits for the rest of it.
            let input = Pipe()
            FileManager.default.createFile(atPath: folder + "/stderr", contents: nil)
            let errors = try #require(FileHandle(forWritingAtPath: folder + "/stderr"))
            let process = try ChildProcess(
                JournalCLI.binary, ["import", "-"], environment: journal.environment, standardInput: input.fileHandleForReading,
                standardError: errors)
            input.fileHandleForWriting.write(Data("[{\"id\": \"6f1c2a44-3b1e-4c8a-9a55-0d1e2f3a4b5c\", \"drink\": \"tea\",".utf8))
            // A bound only so that a program that never catches it fails the test instead of hanging it.
            let deadline = ContinuousClock.now + .seconds(120)
            while process.isRunning, !Self.catchesInterrupt(process.processIdentifier), ContinuousClock.now < deadline { await Task.yield() }
            let caught = Self.catchesInterrupt(process.processIdentifier)
            #expect(caught, "the import does not catch SIGINT")
            #expect(kill(process.processIdentifier, SIGINT) == 0)
            process.waitUntilExit()
            try input.fileHandleForWriting.close()
            try errors.close()
            #expect(process.terminationReason == .exit && process.terminationStatus == 130)
            let said = try String(contentsOfFile: folder + "/stderr", encoding: .utf8)
            #expect(said == "\njournal: interrupted: nothing imported.\n", "\(said)")
            #expect(try journal.fingerprint() == before)
        }
    }
}

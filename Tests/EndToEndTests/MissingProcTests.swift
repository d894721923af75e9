import Foundation
import Testing
import TestSupport

/// Without /proc a Swift program gets no arguments at all (the runtime reads them from
/// /proc/self/cmdline), and `journal sync status` died of SIGILL on a range from 1 to 0. Each program
/// says what is wrong instead, as a setup to fix, and changes nothing.
@Suite(.onTestThreads) struct MissingProcTests {
    @Test(arguments: [
        ["journal", "sync", "status"], ["journal", "add", "espresso"], ["journal", "status"], ["journal-syncd", "--once"],
        ["journal", "import", "--from", "apple-health", "export.zip"],
    ])
    func everyProgramSaysItCannotReadItsCommandLine(_ command: [String]) async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso")
            let before = try journal.fingerprint()
            let program = ProcessRunner.executable(command[0])
            let quoted = ([program] + command.dropFirst()).map { "'\($0)'" }.joined(separator: " ")
            // A mount namespace of the test's own, so /proc goes for this command only.
            let result = try ProcessRunner.run(
                "/usr/bin/unshare", ["--mount", "/bin/sh", "-c", "umount -l /proc && exec \(quoted)"], environment: journal.environment)
            #expect(result.status == 78, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix("\(command[0]): cannot read its command line: /proc is not mounted"),
                    "\(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"))
            #expect(try journal.fingerprint() == before)
        }
    }
}

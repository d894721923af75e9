import Foundation
import Testing
import TestSupport

/// Whatever fails first, a program says it in its own words (`journal: ...`), with an exit status of
/// the one policy, and never traps or prints a stack trace. Each program is run again and again with
/// one file descriptor more, so that each open on its way (the database, its WAL, the locks, the
/// key, the hub, the daemon's epoll, signal pipe and inotify) is the one that fails, in turn.
@Suite(.timeLimit(.minutes(3))) struct DescriptorExhaustionTests {
    /// Below this, the runtime itself cannot start the sync program: libdispatch traps when its
    /// eventfd fails, before any of the journal's code runs.
    static let fewestDescriptors = 5

    @Test(arguments: [["sync"], ["add", "espresso"], ["status"], ["list"], ["export"]])
    func everyFailingOpenOfACommandIsSaidInItsWords(_ arguments: [String]) async throws {
        try await withTemporaryDirectory { folder in
            let a = try JoinedMachines(in: folder).machines[0]
            try a.run("add", "espresso", "--note", "before")
            let failures = try sweep(ProcessRunner.executable("journal"), arguments, environment: a.environment, program: "journal")
            #expect(failures > 0, "no limit made \(arguments) fail")
        }
    }

    @Test func everyFailingOpenOfTheDaemonIsSaidInItsWords() async throws {
        try await withTemporaryDirectory { folder in
            let a = try JoinedMachines(in: folder).machines[0]
            let failures = try sweep(ProcessRunner.executable("journal-syncd"), [], environment: a.environment, program: "journal-syncd")
            #expect(failures > 2, "the daemon should have failed at the database, its lock and its watchers")
        }
    }

    /// Runs `executable` under a growing descriptor limit until it works (a command exits 0; the
    /// daemon is up and is stopped after 3 s), checking each failure on the way; returns how many failed.
    func sweep(_ executable: String, _ arguments: [String], environment: [String: String], program: String) throws -> Int {
        var failures = 0
        for limit in Self.fewestDescriptors...64 {
            let result = try ProcessRunner.run(
                "/usr/bin/timeout", ["-s", "TERM", "3", "/usr/bin/prlimit", "--nofile=\(limit):\(limit)", "--", executable] + arguments,
                environment: environment)
            let started = program == "journal-syncd" && result.status == 124 && result.stderr.contains("watching")
            if result.status == 0 || started { return failures }
            failures += 1
            let said = "\(limit) descriptors: status \(result.status): \(result.stderr)"
            #expect([1, 65, 78].contains(result.status), "\(said)")
            #expect(result.stderr.hasPrefix(program + ": "), "\(said)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Backtrac"), "\(said)")
            #expect(!result.stderr.contains("Error:"), "\(said)")
        }
        Issue.record("\(program) \(arguments) never worked, even with 64 descriptors")
        return failures
    }
}

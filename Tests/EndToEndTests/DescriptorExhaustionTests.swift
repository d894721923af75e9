import Foundation
import Testing
import TestSupport

/// Whatever fails first, a program says it in its own words (`journal: ...`), with an exit status of
/// the one policy, and never traps or prints a stack trace. Each program is run again and again with
/// one file descriptor more, so that each open on its way (the database, its WAL, the locks, the
/// key, the hub, the daemon's epoll, signal pipe and inotify) is the one that fails, in turn.
@Suite(.onTestThreads, .timeLimit(.minutes(3))) struct DescriptorExhaustionTests {
    /// Below this, the programs cannot start at all: the loader needs descriptors, and the sync
    /// program's async main its run loop's eventfd (libdispatch traps without one), before any of the
    /// journal's code runs.
    static let fewestDescriptors = 5

    @Test(arguments: [["sync"], ["add", "espresso"], ["status"], ["list"], ["export"]])
    func everyFailingOpenOfACommandIsSaidInItsWords(_ arguments: [String]) async throws {
        try await withTemporaryDirectory { folder in
            let a = try JoinedMachines(in: folder).machines[0]
            try a.run("add", "espresso", "--note", "before")
            let environment = a.environment
            let sweep = try await offThePool {
                try Self.sweep(ProcessRunner.executable("journal"), arguments, environment: environment, daemon: false)
            }
            Self.check(sweep, program: "journal")
            #expect(!sweep.failures.isEmpty, "no limit made \(arguments) fail")
        }
    }

    @Test func everyFailingOpenOfTheDaemonIsSaidInItsWords() async throws {
        try await withTemporaryDirectory { folder in
            let environment = try JoinedMachines(in: folder).machines[0].environment
            let sweep = try await offThePool {
                try Self.sweep(ProcessRunner.executable("journal-syncd"), [], environment: environment, daemon: true)
            }
            Self.check(sweep, program: "journal-syncd")
            #expect(sweep.failures.count > 2, "the daemon should have failed at the database, its lock and its watchers")
        }
    }

    /// The runs that failed, each with its limit, and whether the program worked in the end.
    struct Sweep: Sendable {
        var failures: [(limit: Int, result: ProcessResult)] = []
        var worked = false
    }

    /// Runs `executable` under a growing descriptor limit until it works: a command exits 0, the daemon
    /// says READY=1 (and is stopped). Blocking: it waits for each process in turn. A run is given a
    /// minute, a bound on a hang, not a measure of speed: a busy machine took 3 s for a command.
    static func sweep(_ executable: String, _ arguments: [String], environment: [String: String], daemon: Bool) throws -> Sweep {
        var sweep = Sweep()
        for limit in fewestDescriptors...64 {
            let limited = ["--nofile=\(limit):\(limit)", "--", executable] + arguments
            let result = daemon
                ? try runDaemon(limited, environment: environment)
                : try ProcessRunner.run("/usr/bin/timeout", ["-s", "KILL", "60", "/usr/bin/prlimit"] + limited, environment: environment)
            if result.status == 0 {
                sweep.worked = true
                return sweep
            }
            sweep.failures.append((limit, result))
        }
        return sweep
    }

    /// The daemon under prlimit: status 0 once it is up, its loop running (READY=1, or, where a failed
    /// open keeps the hub from being watched, "watching" in its log and the failure retried), then it
    /// is stopped; else how it ended; 124 when it neither ended nor came up within a minute.
    static func runDaemon(_ arguments: [String], environment: [String: String]) throws -> ProcessResult {
        let folder = environment["HOME"] ?? NSTemporaryDirectory()
        let socket = try NotifySocket(path: folder + "/sweep.sock")
        let stderrPath = socket.path + ".stderr"
        var daemonEnvironment = environment
        daemonEnvironment["NOTIFY_SOCKET"] = socket.path
        let process = try ProcessRunner.start("/usr/bin/prlimit", arguments, environment: daemonEnvironment, stderrPath: stderrPath)
        let deadline = ContinuousClock.now + .seconds(60)
        var ready = false
        func stderr() -> String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
        while !ready && process.isRunning && ContinuousClock.now < deadline {
            ready = socket.receive(timeout: .milliseconds(100)) == "READY=1" || stderr().contains(" info watching ")
        }
        let hung = !ready && process.isRunning
        ProcessRunner.stop(process, signal: SIGTERM)
        return ProcessResult(status: ready ? 0 : hung ? 124 : process.terminationStatus, stdout: "", stderr: stderr())
    }

    /// Each failure said as `program: ...`, with a status of the one policy, and no trap.
    static func check(_ sweep: Sweep, program: String) {
        #expect(sweep.worked, "\(program) never worked, even with 64 descriptors")
        for (limit, result) in sweep.failures {
            let said = "\(limit) descriptors: status \(result.status): \(result.stderr)"
            #expect([1, 65, 78].contains(result.status), "\(said)")
            #expect(result.stderr.hasPrefix(program + ": "), "\(said)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Backtrac"), "\(said)")
            #expect(!result.stderr.contains("Error:"), "\(said)")
        }
    }
}

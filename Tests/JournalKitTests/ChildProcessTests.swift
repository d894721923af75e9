import Foundation
import Testing
import TestSupport

/// The programs tests start (`ChildProcess`): what Foundation's `Process` gave them, without its
/// crash, and without a descriptor or a blocked signal of the test process leaking into them.
@Suite(.onTestThreads) struct ChildProcessTests {
    /// Foundation's `Process` crashed a whole test run (swift-corelibs-foundation#5472, see
    /// `ChildProcess`): no test starts a program with it.
    @Test func noTestStartsAProgramWithFoundationsProcess() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        let foundationsProcess = /\bProcess\b/
        var read = 0
        for file in files {
            read += 1
            let text = try String(contentsOfFile: tests.path + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                #expect(line.firstMatch(of: foundationsProcess) == nil, "\(file): \(line)")
            }
        }
        #expect(read > 100)
    }

    /// A descriptor the test process opened without close-on-exec (as another thread's may be at any
    /// moment) is not the child's.
    @Test func aChildHasOnlyTheStreamsItWasGiven() throws {
        let leaked = open("/dev/null", O_RDONLY)
        try #require(leaked > 2)
        defer { close(leaked) }
        let seen = try ProcessRunner.run("/bin/sh", ["-c", "ls /proc/$$/fd"], environment: [:])
        #expect(seen.status == 0, "\(seen.stderr)")
        #expect(Set(seen.stdout.split(separator: "\n")) == ["0", "1", "2"], "\(seen.stdout)")
    }

    @Test func anExitAndASignalAreToldApart() throws {
        let exited = try ChildProcess("/bin/sh", ["-c", "exit 3"])
        exited.waitUntilExit()
        #expect(exited.terminationReason == .exit && exited.terminationStatus == 3)
        let killed = try ChildProcess("/bin/sh", ["-c", "kill -TERM $$"])
        killed.waitUntilExit()
        #expect(killed.terminationReason == .uncaughtSignal && killed.terminationStatus == SIGTERM)
    }

    /// A signal the starting thread blocks is not blocked in the child: a daemon a test stops with
    /// SIGTERM must be able to receive it.
    @Test func aChildStartsWithNoSignalBlocked() async throws {
        let status = try await offThePool {
            var terminate = sigset_t()
            sigemptyset(&terminate)
            sigaddset(&terminate, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &terminate, nil)
            return try ProcessRunner.run("/bin/grep", ["^SigBlk", "/proc/self/status"], environment: [:])
        }
        #expect(status.stdout == "SigBlk:\t0000000000000000\n", "\(status.stdout)")
    }

    /// Each child leads a process group of its own, as Foundation's did: a server's watcher is ended
    /// with all it started by a signal to its group.
    @Test func aChildLeadsAProcessGroupOfItsOwn() throws {
        let output = try ClosedOnExecPipe()
        let child = try ChildProcess("/bin/sh", ["-c", "cut -d' ' -f5 /proc/$$/stat"], standardOutput: output.writing)
        try output.writing.close()
        let group = String(decoding: output.reading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(group == "\(child.processIdentifier)\n")
    }

    /// A child nobody waits for (a server's watcher) does not stay a zombie once it ends, as
    /// Foundation's did not.
    @Test func aChildLetGoIsWaitedForWhenItEnds() async throws {
        let pid = try ChildProcess("/bin/sh", ["-c", "exit 0"]).processIdentifier
        // Only a hang ends this wait early: a zombie keeps its /proc entry until it is waited for.
        let deadline = ContinuousClock.now + .seconds(300)
        while FileManager.default.fileExists(atPath: "/proc/\(pid)"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(pid)"))
    }

    /// One thread waits for the end while another asks whether it has come: neither holds the other up,
    /// and both learn the same end.
    @Test func aWaitAndAQuestionGoOnTogether() async throws {
        let input = try ClosedOnExecPipe()
        let child = try ChildProcess("/bin/cat", [], standardInput: input.reading)
        try input.reading.close()
        async let waited: Int32 = offThePool {
            child.waitUntilExit()
            return child.terminationStatus
        }
        #expect(child.isRunning)
        try input.writing.close()
        #expect(try await waited == 0)
        #expect(!child.isRunning && child.terminationStatus == 0 && child.terminationReason == .exit)
    }
}

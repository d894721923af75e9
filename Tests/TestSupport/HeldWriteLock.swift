import Foundation

/// A journal's write lock, held by another process (`sqlite3` in `BEGIN EXCLUSIVE`, as a person's long
/// transaction would hold it) until `release()`: to stop a command or a daemon at its next write, for
/// as long as SQLite's busy timeout (15 s), while its reads go on.
public final class HeldWriteLock: @unchecked Sendable {
    private let holder: ChildProcess
    private let commands: ClosedOnExecPipe

    /// Returns once the lock is held. The holder waits for a writer that has it (a command that has
    /// just exited may still be checkpointing), and ends rather than answer when it cannot take it:
    /// a lock that is not held would let the command through, and the test wait for nothing.
    public init(database: String) throws {
        commands = try ClosedOnExecPipe()
        let answers = try ClosedOnExecPipe()
        holder = try ChildProcess(
            "/usr/bin/sqlite3", ["-bail", "-cmd", ".timeout 60000", database],
            standardInput: commands.reading, standardOutput: answers.writing, standardError: FileHandle.standardError)
        for end in [commands.reading, answers.writing] { try end.close() }
        commands.send(Data("BEGIN EXCLUSIVE;\nSELECT 'holding';\n".utf8))
        let answer = String(decoding: answers.reading.availableData, as: UTF8.self)
        guard answer.hasPrefix("holding") else {
            ProcessRunner.stop(holder)
            throw FixtureError("sqlite3 could not take the write lock of \(database)")
        }
    }

    /// Lets go of the lock, and waits for the holder to end. Called from one thread at a time.
    public func release() {
        guard holder.isRunning else { return }
        commands.send(Data("ROLLBACK;\n.quit\n".utf8))
        holder.waitUntilExit()
    }

    deinit { ProcessRunner.stop(holder) }

    /// Lets go of the lock once process `pid` (or one under it) waits for it, `then` run first, or
    /// once `pid` has ended; true when it was seen waiting. Watched from a thread of its own, not from
    /// the test's task: on a busy 2-core machine that task can be held up for longer than the 15 s the
    /// waiting command gives the lock before it gives up. `pause` lets the waiting command be seen
    /// waiting (its progress line drawn) before the lock goes.
    public func release(onceWaitedBy pid: Int32, pause: Duration = .zero, then: @escaping @Sendable () -> Void = {}) async -> Bool {
        return await withCheckedContinuation { (answer: CheckedContinuation<Bool, Never>) in
            Thread.detachNewThread {
                // Only a hang ends this wait early: the lock is held until the command waits for it or ends.
                let deadline = ContinuousClock.now + .seconds(600)
                var waited = false
                while !waited, Self.isAlive(pid), ContinuousClock.now < deadline {
                    waited = Self.isWaited(by: pid)
                    if !waited { Thread.sleep(forTimeInterval: 0.01) }
                }
                if waited {
                    Thread.sleep(forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
                    then()
                }
                self.release()
                answer.resume(returning: waited)
            }
        }
    }

    /// True while `pid` has not ended (an ended child not yet waited for is a zombie, state Z).
    private static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first
        else { return false }
        return state != "Z" && state != "X"
    }

    /// The numbers of `clock_nanosleep` and `nanosleep`, which Glibc's module does not bring.
    #if arch(arm64)
    static let sleepCalls = ["115", "101"]
    #else
    static let sleepCalls = ["230", "35"]
    #endif

    /// True when a thread of process `pid`, or of a process under it, sleeps in `nanosleep` or
    /// `clock_nanosleep`: where SQLite's busy handler waits for a lock.
    public static func isWaited(by pid: Int32) -> Bool {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let asleep = threads.contains { thread in
            let call = (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/syscall", encoding: .utf8))?.split(separator: " ").first
            return call.map { sleepCalls.contains(String($0)) } ?? false
        }
        let children = ((try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? "")
            .split(separator: " ").compactMap { Int32($0) }
        return asleep || children.contains(where: isWaited(by:))
    }
}

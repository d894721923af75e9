import Foundation

/// A journal's write lock, held by another process (`sqlite3` in `BEGIN EXCLUSIVE`, as a person's long
/// transaction would hold it) until `release()`: to stop a command or a daemon at its next write, for
/// as long as SQLite's busy timeout (15 s), while its reads go on.
public final class HeldWriteLock {
    private let holder = Process()
    private let commands = Pipe()

    /// Returns once the lock is held. The holder waits for a writer that has it (a command that has
    /// just exited may still be checkpointing), and ends rather than answer when it cannot take it:
    /// a lock that is not held would let the command through, and the test wait for nothing.
    public init(database: String) throws {
        let answers = Pipe()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = ["-bail", "-cmd", ".timeout 60000", database]
        holder.standardInput = commands
        holder.standardOutput = answers
        try holder.run()
        commands.fileHandleForWriting.write(Data("BEGIN EXCLUSIVE;\nSELECT 'holding';\n".utf8))
        let answer = String(decoding: answers.fileHandleForReading.availableData, as: UTF8.self)
        guard answer.hasPrefix("holding") else {
            ProcessRunner.stop(holder)
            throw FixtureError("sqlite3 could not take the write lock of \(database)")
        }
    }

    /// Lets go of the lock, and waits for the holder to end.
    public func release() {
        guard holder.isRunning else { return }
        commands.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
        holder.waitUntilExit()
    }

    deinit { ProcessRunner.stop(holder) }

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

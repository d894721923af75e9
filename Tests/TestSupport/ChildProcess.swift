import CLinux
import Foundation
import Synchronization

/// A program the test process started (posix_spawn), in place of Foundation's `Process`.
///
/// Foundation's, on Linux, reads /proc/self/fd before each start to close in the child every
/// descriptor it should not have, and copies 256 bytes of each entry's name however short the entry
/// (swift-corelibs-foundation#5472): when the last entry ends just before an unmapped page, the test
/// process dies of SIGSEGV. A whole test run did so, in CI and here, starting a `psql`. Here the child
/// closes those descriptors itself (closefrom), which also means none that another thread opened
/// without close-on-exec reaches it.
public final class ChildProcess: Sendable {
    public enum TerminationReason: Sendable {
        case exit
        case uncaughtSignal
    }

    public let processIdentifier: pid_t

    /// How it ended, once waited for.
    private let end = Mutex<End?>(nil)

    private enum End {
        /// The status `waitpid` gave.
        case waited(Int32)
        /// Waited for elsewhere (nothing in the tests does that): how it ended is not known.
        case lost
    }

    /// Starts `executable` with `arguments` and `environment` (by default this process's own) in a
    /// process group of its own, as Foundation's did; a standard stream not given is /dev/null.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        standardInput: FileHandle? = nil, standardOutput: FileHandle? = nil, standardError: FileHandle? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams: [(FileHandle?, Int32, Int32)] = [
            (standardInput, STDIN_FILENO, O_RDONLY), (standardOutput, STDOUT_FILENO, O_WRONLY),
            (standardError, STDERR_FILENO, O_WRONLY),
        ]
        for (handle, target, mode) in streams {
            let added = if let handle {
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            }
            guard added == 0 else { throw FixtureError("cannot give \(executable) its stream \(target): \(String(cString: strerror(added)))") }
        }
        let closing = journal_spawn_close_from(&actions, 3)
        guard closing == 0 else { throw FixtureError("cannot close descriptors for \(executable): \(String(cString: strerror(closing)))") }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A test thread may block signals (a dispatch worker does): the program starts with none blocked.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = environment ?? ProcessInfo.processInfo.environment
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw FixtureError("cannot start \(executable): \(String(cString: strerror(spawned)))") }
        processIdentifier = pid
    }

    /// A process nobody waited for is waited for once it ends, on a thread of its own, so that it does
    /// not stay a zombie for the rest of the run (a server's watcher, which ends with the test process).
    deinit {
        guard end.withLock({ $0 == nil }) else { return }
        let pid = processIdentifier
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// True until the process has ended.
    public var isRunning: Bool { ended(waiting: false) == nil }

    /// Returns once the process has ended.
    public func waitUntilExit() {
        while ended(waiting: true) == nil {}
    }

    /// Its exit status, or the signal that ended it; -1 when that is not known. Asked once it has ended.
    public var terminationStatus: Int32 {
        guard case .waited(let status) = ended(waiting: true) else { return -1 }
        return Self.signal(status) ?? (status >> 8) & 0xff
    }

    public var terminationReason: TerminationReason {
        guard case .waited(let status) = ended(waiting: true), Self.signal(status) != nil else { return .exit }
        return .uncaughtSignal
    }

    /// The signal a `waitpid` status says ended the process; nil when it exited.
    private static func signal(_ status: Int32) -> Int32? {
        status & 0x7f == 0 ? nil : status & 0x7f
    }

    /// How it ended, or nil while it runs. `waiting` waits for its end first, outside the lock and
    /// without taking the status (WNOWAIT), so that `isRunning` is answered from other threads meanwhile.
    private func ended(waiting: Bool) -> End? {
        if let known = end.withLock({ $0 }) { return known }
        if waiting {
            var information = siginfo_t()
            while waitid(P_PID, id_t(processIdentifier), &information, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        }
        return end.withLock { end in
            if end == nil {
                var status: Int32 = 0
                let waited = waitpid(processIdentifier, &status, WNOHANG)
                if waited == processIdentifier {
                    end = .waited(status)
                } else if waited < 0 && errno == ECHILD {
                    end = .lost
                }
            }
            return end
        }
    }
}

import CLinux
import JournalKit

import Glibc

/// The signals the daemon answers: SIGTERM and SIGINT stop it, SIGHUP and SIGUSR1 ask for a sync. A
/// handler (in C) writes each one's number to a pipe the event loop watches, so the answer runs on
/// the loop's thread. (A signalfd would need the signals blocked in every thread, and the thread
/// Swift's async main parks in waits with none blocked.)
enum Signals {
    static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1]

    /// Calls `handler` with each handled signal that arrives, on the event loop's thread.
    static func watch(_ handler: @escaping @Sendable (Int32) -> Void) throws(WatcherError) {
        var ends: [Int32] = [-1, -1]
        guard journal_pipe(&ends, O_NONBLOCK | O_CLOEXEC) == 0 else {
            throw WatcherError(path: "a signal pipe", reason: String(cString: strerror(errno)))
        }
        let reading = ends[0]
        try EventLoop.shared.add(reading) {
            var numbers = [UInt8](repeating: 0, count: 16)
            while true {
                let count = read(reading, &numbers, numbers.count)
                guard count > 0 else { return }
                for number in numbers.prefix(count) { handler(Int32(number)) }
            }
        }
        for signal in handled where journal_forward_signal(signal, ends[1]) != 0 {
            throw WatcherError(path: name(signal), reason: String(cString: strerror(errno)))
        }
    }

    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGTERM: return "SIGTERM"
        case SIGINT: return "SIGINT"
        case SIGHUP: return "SIGHUP"
        case SIGUSR1: return "SIGUSR1"
        default: return "signal \(signal)"
        }
    }
}

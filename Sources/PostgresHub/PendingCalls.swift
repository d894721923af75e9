import NIOCore
import Synchronization

/// The calls waiting on one connection, each told when its channel closes (`Channel.whenClosed`). One
/// watch of the channel serves them all: a watch per call, as there was, kept each call's outcome (a
/// sync's segments and cards) alive until the connection closed, so a daemon's memory grew with every
/// sync and stayed grown while idle (20,000 junk cards of 16 KB held 240 MB after one sync).
final class PendingCalls: Sendable {
    private struct State {
        var next = 0
        var failing: [Int: @Sendable () -> Void] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    init(watching channel: any Channel) {
        channel.whenClosed { [self] in
            let failing = state.withLock { state in
                state.closed = true
                defer { state.failing = [:] }
                return Array(state.failing.values)
            }
            for fail in failing { fail() }
        }
    }

    /// Calls `fail` when the channel closes, unless `finished` is called with the number returned first.
    func watch(_ fail: @escaping @Sendable () -> Void) -> Int {
        let (number, closed) = state.withLock { state in
            state.next += 1
            if !state.closed { state.failing[state.next] = fail }
            return (state.next, state.closed)
        }
        if closed { fail() }
        return number
    }

    /// How many calls have started on the connection, and whether one is under way: two readings
    /// that are equal, neither with a call under way, show that no call ran between them.
    var activity: CallActivity {
        state.withLock { CallActivity(started: $0.next, underWay: !$0.failing.isEmpty) }
    }

    /// The call `number` ended: it is not told of the channel's closing.
    func finished(_ number: Int) {
        _ = state.withLock { $0.failing.removeValue(forKey: number) }
    }
}

/// What `PendingCalls.activity` read.
struct CallActivity: Equatable {
    let started: Int
    let underWay: Bool

    /// True when no call ran on the connection from `self` until `later`.
    func idle(until later: CallActivity) -> Bool { !underWay && self == later }
}

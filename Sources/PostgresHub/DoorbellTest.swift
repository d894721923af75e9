import NIOCore
import Synchronization

/// A test ring of a hub's doorbell: a notification with a payload of its own, sent from another
/// connection as another device's would be, and waited for on the listening one. A pooler in
/// transaction mode (PgBouncer's default on some managed services) passes LISTEN to whichever server
/// connection is free and then gives that connection to other clients, so notifications never come:
/// only a ring that comes back shows they do. Waits are timers on the connection's event loop, so
/// they cost no thread.
final class DoorbellTest: Sendable {
    /// How long a test ring may take to come back: a notification takes milliseconds.
    static let wait: Duration = .seconds(5)
    /// How often the hub is polled, and rung again, while rings do not come back.
    static let pollInterval: Duration = .seconds(30)

    /// What a test ring's payload starts with; a device id (a UUID) never does.
    static let prefix = "test-ring:"

    static func isTest(_ payload: String) -> Bool { payload.hasPrefix(prefix) }

    private struct State {
        var expected: String?
        var cameBack = false
        var waiter: Waiter?
        var waits = 0

        /// The waiter, taken, when what it waits for now holds.
        mutating func satisfied() -> CheckedContinuation<Bool, Never>? {
            guard let waiter, waiter.done(self) else { return nil }
            self.waiter = nil
            return waiter.continuation
        }
    }

    private struct Waiter {
        let number: Int
        let done: @Sendable (State) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private let state = Mutex(State())
    private let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    /// A new ring's payload, the one now expected.
    func next() -> String {
        let token = Self.prefix + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        state.withLock { state in
            state.expected = token
            state.cameBack = false
        }
        return token
    }

    /// True when `payload` is the ring expected; it then ends a wait for it.
    func heard(_ payload: String) -> Bool {
        let (expected, waiter): (Bool, CheckedContinuation<Bool, Never>?) = state.withLock { state in
            guard state.expected == payload, !state.cameBack else { return (false, nil) }
            state.cameBack = true
            return (true, state.satisfied())
        }
        waiter?.resume(returning: true)
        return expected
    }

    /// Whether the ring `token` came back within `limit`.
    func cameBack(_ token: String, within limit: Duration) async -> Bool {
        await waitFor(limit) { $0.expected == token && $0.cameBack }
    }

    /// Waits `duration` (less if cancelled, checked every second).
    func pause(_ duration: Duration) async {
        var left = duration
        while left > .zero, !Task.isCancelled {
            let step = min(left, .seconds(1))
            try? await eventLoop.scheduleTask(in: Self.timeAmount(step)) {}.futureResult.get()
            left -= step
        }
    }

    /// Waits until `done` holds, or `limit` passed: the one waiter is resumed by whichever comes
    /// first, and a timer of an earlier wait never ends a later one.
    private func waitFor(_ limit: Duration, _ done: @escaping @Sendable (State) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let number: Int? = state.withLock { state in
                if done(state) { return nil }
                state.waits += 1
                state.waiter = Waiter(number: state.waits, done: done, continuation: continuation)
                return state.waits
            }
            guard let number else { return continuation.resume(returning: true) }
            eventLoop.scheduleTask(in: Self.timeAmount(limit)) { [self] in
                let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
                    guard let waiter = state.waiter, waiter.number == number else { return nil }
                    state.waiter = nil
                    return waiter.continuation
                }
                waiter?.resume(returning: false)
            }
        }
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(Int64(duration / .nanoseconds(1)))
    }
}

import NIOCore
import Synchronization

/// The first of several outcomes of one call, given to whoever waits for it; the later ones are
/// dropped. What lets a call end when its connection does, though the driver never answers it.
final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var waiting: CheckedContinuation<Value, any Error>?
        var outcome: Result<Value, any Error>?
    }

    private let state = Mutex(State())

    /// Waits for the first outcome, or takes it at once when it came before.
    func wait() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let early = state.withLock { state -> Result<Value, any Error>? in
                if let outcome = state.outcome { return outcome }
                state.waiting = continuation
                return nil
            }
            if let early { continuation.resume(with: early) }
        }
    }

    /// Gives `outcome` to the one waiting, unless an outcome came before; true when it was the first.
    @discardableResult
    func finish(_ outcome: Result<Value, any Error>) -> Bool {
        let (first, waiting) = state.withLock { state -> (Bool, CheckedContinuation<Value, any Error>?) in
            guard state.outcome == nil else { return (false, nil) }
            state.outcome = outcome
            defer { state.waiting = nil }
            return (true, state.waiting)
        }
        waiting?.resume(with: outcome)
        return first
    }
}

/// The channel closed before the work on it ended.
struct ChannelEnded: Error {}

extension Channel {
    /// The value of `future`, or `ChannelEnded` once this channel has closed without it. Work handed
    /// to a channel that is closing (a PostgresNIO startup, a handler added as the server went away)
    /// may never be answered: its promise stays pending, and a caller waiting for it would wait forever.
    func valueBeforeClosing<T: Sendable>(_ future: EventLoopFuture<T>) async throws -> T {
        let outcome = FirstOutcome<T>()
        future.whenComplete { outcome.finish($0) }
        whenClosed { outcome.finish(.failure(ChannelEnded())) }
        return try await outcome.wait()
    }

    /// Calls `then` a moment after this channel closes (`answerGrace`): what failed with the channel
    /// (a password refused, a server shutting down) is said in its own words when the driver says it
    /// by then, before `then` says only that the connection ended.
    func whenClosed(_ then: @escaping @Sendable () -> Void) {
        let loop = eventLoop
        closeFuture.whenComplete { _ in loop.scheduleTask(in: Self.answerGrace) { then() } }
    }

    /// How long after its channel closes a call's own failure is waited for.
    static var answerGrace: TimeAmount { .seconds(1) }
}

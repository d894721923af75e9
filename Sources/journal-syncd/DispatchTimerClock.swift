@preconcurrency import Dispatch
import Synchronization

/// A clock whose sleeps are one-shot dispatch timers. An idle daemon must not wake up: on Linux a
/// pending `Task.sleep` wakes its process every second, while a dispatch timer sleeps in the kernel
/// until its deadline. On the wall clock, a laptop's suspend counts as time passed (right for the
/// safety-net sync); on the monotonic clock, a wall clock set back cannot delay the deadline (right
/// for the watchdog, whom a late ping gets killed).
struct DispatchTimerClock: Clock {
    typealias Instant = ContinuousClock.Instant

    /// True for deadlines on the wall clock, false for the monotonic clock.
    var wall = true
    private let queue = DispatchQueue(label: "journal-syncd.timers", qos: .utility)

    var now: Instant { .now }
    var minimumResolution: Duration { .milliseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let delay = Instant.now.duration(to: deadline)
        guard delay > .zero else { return }
        let timer = OneShotTimer(queue: queue, wall: wall)
        try await withTaskCancellationHandler {
            try await timer.wait(delay, leeway: tolerance ?? .zero)
        } onCancel: {
            timer.cancel()
        }
    }
}

/// One dispatch timer and the continuation waiting for it; whichever of firing and cancelling comes
/// first resumes it, once. The timer source exists only once it is started: libdispatch aborts the
/// process when a source that never ran is released.
private final class OneShotTimer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var source: (any DispatchSourceTimer)?
        var finished = false
    }

    private let queue: DispatchQueue
    private let wall: Bool
    private let state = Mutex<State>(State())

    init(queue: DispatchQueue, wall: Bool) {
        self.queue = queue
        self.wall = wall
    }

    func wait(_ delay: Duration, leeway: Duration) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let started = state.withLock { state -> Bool in
                if state.finished { return false }
                let source = DispatchSource.makeTimerSource(queue: queue)
                if wall {
                    source.schedule(wallDeadline: .now() + Self.interval(delay), leeway: Self.interval(leeway))
                } else {
                    source.schedule(deadline: .now() + Self.interval(delay), leeway: Self.interval(leeway))
                }
                source.setEventHandler { [weak self] in self?.finish(with: nil) }
                source.resume()
                state.continuation = continuation
                state.source = source
                return true
            }
            if !started { continuation.resume(throwing: CancellationError()) }
        }
    }

    func cancel() {
        finish(with: CancellationError())
    }

    private func finish(with error: (any Error)?) {
        let (continuation, source) = state.withLock { state in
            defer {
                state.continuation = nil
                state.source = nil
                state.finished = true
            }
            return (state.continuation, state.source)
        }
        source?.cancel()
        guard let continuation else { return }
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }

    /// A duration as dispatch takes it, capped at a year so the nanoseconds cannot overflow.
    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let seconds = min(max(duration.components.seconds, 0), 365 * 86_400)
        let nanoseconds = seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        return .nanoseconds(Int(max(nanoseconds, 0)))
    }
}

@preconcurrency import Dispatch
import Synchronization

/// A clock whose sleeps are one-shot dispatch timers. An idle daemon must not wake up: on Linux a
/// pending `Task.sleep` wakes its process every second, while a dispatch timer sleeps in the kernel
/// until its deadline. Deadlines are on the wall clock, so a laptop's suspend counts as time passed.
struct DispatchTimerClock: Clock {
    typealias Instant = ContinuousClock.Instant

    private let queue = DispatchQueue(label: "journal-syncd.timers")

    var now: Instant { .now }
    var minimumResolution: Duration { .milliseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let delay = Instant.now.duration(to: deadline)
        guard delay > .zero else { return }
        let timer = OneShotTimer(queue: queue)
        try await withTaskCancellationHandler {
            try await timer.wait(delay, leeway: tolerance ?? .zero)
        } onCancel: {
            timer.cancel()
        }
    }
}

/// One dispatch timer and the continuation waiting for it; whichever of firing and cancelling comes
/// first resumes it, once.
private final class OneShotTimer: @unchecked Sendable {
    private let source: any DispatchSourceTimer
    private let waiter = Mutex<(continuation: CheckedContinuation<Void, any Error>?, cancelled: Bool)>((nil, false))

    init(queue: DispatchQueue) {
        source = DispatchSource.makeTimerSource(queue: queue)
    }

    func wait(_ delay: Duration, leeway: Duration) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let cancelled = waiter.withLock { state -> Bool in
                if state.cancelled { return true }
                state.continuation = continuation
                return false
            }
            if cancelled { return continuation.resume(throwing: CancellationError()) }
            let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
            let slack = leeway.components.seconds * 1_000_000_000 + leeway.components.attoseconds / 1_000_000_000
            source.schedule(wallDeadline: .now() + .nanoseconds(Int(nanoseconds)), leeway: .nanoseconds(Int(slack)))
            source.setEventHandler { [self] in finish(with: nil) }
            source.resume()
        }
    }

    func cancel() {
        finish(with: CancellationError())
    }

    private func finish(with error: (any Error)?) {
        let continuation = waiter.withLock { state -> CheckedContinuation<Void, any Error>? in
            defer {
                state.continuation = nil
                state.cancelled = true
            }
            return state.continuation
        }
        source.cancel()
        guard let continuation else { return }
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
}

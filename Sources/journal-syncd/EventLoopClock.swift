import CLinux
import Synchronization

import Glibc

/// A clock whose sleeps are timerfds on the daemon's event loop. An idle daemon must not wake up: on
/// Linux a pending `Task.sleep` wakes its process every second, while a timerfd sleeps in the kernel
/// until its deadline. On the boot-time clock a laptop's suspend counts as time passed (right for the
/// safety-net sync); on the monotonic clock it does not, and neither clock moves when the wall clock
/// is set (right for the watchdog, which a late ping gets the daemon killed by).
struct EventLoopClock: Clock {
    typealias Instant = ContinuousClock.Instant

    /// True to count time spent suspended, false for the monotonic clock.
    var countsSuspend = true

    var now: Instant { .now }
    var minimumResolution: Duration { .milliseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let delay = Instant.now.duration(to: deadline)
        guard delay > .zero else { return }
        let timer = try OneShotTimer(delay, clock: countsSuspend ? CLOCK_BOOTTIME : CLOCK_MONOTONIC)
        try await withTaskCancellationHandler {
            try await timer.wait()
        } onCancel: {
            timer.finish(with: CancellationError())
        }
    }
}

/// One timerfd and the continuation waiting for it; whichever of firing and cancelling comes first
/// resumes it, once, and closes the timer.
private final class OneShotTimer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var outcome: (any Error)??
    }

    private let descriptor: Int32
    private let state = Mutex<State>(State())

    init(_ delay: Duration, clock: Int32) throws {
        descriptor = timerfd_create(clock, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else { throw WatcherError(path: "timerfd", reason: String(cString: strerror(errno))) }
        // At most a year, so the seconds cannot overflow; at least a nanosecond, as zero disarms it.
        let seconds = min(max(delay.components.seconds, 0), 365 * 86_400)
        let nanoseconds = max(delay.components.attoseconds / 1_000_000_000, seconds == 0 ? 1 : 0)
        var spec = itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds)))
        timerfd_settime(descriptor, 0, &spec, nil)
    }

    func wait() async throws {
        try await withCheckedThrowingContinuation { continuation in
            let early = state.withLock { state -> (any Error)?? in
                if let outcome = state.outcome { return outcome }
                state.continuation = continuation
                return nil
            }
            if let early {
                if let error = early { continuation.resume(throwing: error) } else { continuation.resume() }
                return
            }
            do {
                try EventLoop.shared.add(descriptor) { [self] in
                    var expirations: UInt64 = 0
                    if read(descriptor, &expirations, 8) == 8 { finish(with: nil) }
                }
            } catch {
                finish(with: error)
            }
        }
    }

    func finish(with error: (any Error)?) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard state.outcome == nil else { return nil }
            state.outcome = .some(error)
            defer { state.continuation = nil }
            return state.continuation
        }
        EventLoop.shared.remove(descriptor)
        guard let continuation else { return }
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }

    deinit {
        EventLoop.shared.remove(descriptor)
        close(descriptor)
    }
}

import Glibc
import Synchronization

/// A clock that moves only when the test says: sleepers wake when `advance` passes their deadline.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        let offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let state = Mutex<(now: Instant, sleepers: [Sleeper], nextID: Int)>((Instant(offset: .zero), [], 0))

    var now: Instant { state.withLock { $0.now } }
    /// How many tasks sleep on this clock now.
    var sleeping: Int { state.withLock { $0.sleepers.count } }

    /// When the tasks asleep on this clock wake, as offsets from the clock's start, earliest first.
    var wakeTimes: [Duration] { state.withLock { $0.sleepers.map(\.deadline.offset).sorted() } }

    /// Waits until the tasks asleep on this clock wake at exactly `times` (offsets from its start).
    func waitUntilAsleep(until times: [Duration]) async {
        let wanted = times.sorted()
        while wakeTimes != wanted, !Task.isCancelled { await Task.yield() }
    }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // A sleep begun once its task was cancelled throws at once, as a real clock's does:
                // returning instead let a loop that sleeps between looks spin for ever once cancelled
                // between two sleeps (HubPollingTests hung a whole run so).
                let cancelled = Task.isCancelled
                let ready = state.withLock { state -> Bool in
                    if deadline <= state.now || cancelled { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                } else if ready {
                    continuation.resume()
                }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits until `count` tasks sleep on this clock, so an `advance` cannot come before their sleep.
    func waitForSleepers(_ count: Int) async {
        while state.withLock({ $0.sleepers.count }) < count, !Task.isCancelled { await Task.yield() }
    }

    /// `waitForSleepers` for a caller that is not async (a hub's synchronous read): it yields its
    /// thread until they sleep.
    func waitForSleepersBlocking(_ count: Int) {
        while state.withLock({ $0.sleepers.count }) < count { sched_yield() }
    }
}

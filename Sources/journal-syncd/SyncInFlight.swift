import JournalSync
import Synchronization

/// The sync under way, which a stop cancels from any thread. The loop's own thread cannot be relied
/// on for it: a sync waiting in SQLite for the journal's write lock holds that thread, and with it
/// every task of the daemon (the service group's shutdown too) until the lock comes. Cancelled, the
/// sync stops after the segment in flight.
final class SyncInFlight: Sendable {
    private struct State {
        var sync: Task<SyncReport, any Error>?
        var stopped = false
    }

    private let state = Mutex(State())

    /// Starts `body` as the sync under way, cancelled at once when a stop came first.
    func start(_ body: sending @escaping @isolated(any) () async throws -> SyncReport, on executor: any TaskExecutor) -> Task<SyncReport, any Error> {
        let sync = Task(executorPreference: executor, operation: body)
        let stopped = state.withLock { state in
            state.sync = sync
            return state.stopped
        }
        if stopped { sync.cancel() }
        return sync
    }

    /// Cancels the sync under way, and every one started after.
    func stop() {
        state.withLock { state in
            state.stopped = true
            return state.sync
        }?.cancel()
    }
}

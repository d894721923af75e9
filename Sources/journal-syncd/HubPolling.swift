import JournalKit
import JournalSync
import Synchronization

/// Looks at a hub that cannot push (`HubChanges.polls`) on its schedule, waiting on the service's
/// clock, and says what it saw as a doorbell would: `ServerDoorbell` runs it, so a look that fails
/// is tried again with the doorbell's backoff, and its return is a `.listening` that syncs.
final class HubPolling<C: Clock>: Sendable where C.Duration == Duration {
    let poll: HubPoll
    let clock: C
    /// When a person last changed something, kept across a failed look and the looks after it: a
    /// server that fails now and then does not make the hub active again by coming back.
    private let lastChange = Mutex<C.Instant?>(nil)

    init(poll: HubPoll, clock: C) {
        self.poll = poll
        self.clock = clock
    }

    /// Looks until cancelled (returns) or a look fails (throws).
    func listen(_ sign: @escaping @Sendable (DoorbellSign) -> Void) async throws {
        _ = try await poll.look()
        sign(.listening)
        // The first start counts as a change: a person who starts the daemon is about to use it.
        let now = clock.now
        lastChange.withLock { $0 = $0 ?? now }
        while true {
            let since = lastChange.withLock { $0 ?? now }.duration(to: clock.now)
            do { try await clock.sleep(for: poll.schedule.wait(sinceChange: since)) } catch { return }
            let change = try await poll.look()
            if change.isActivity {
                let seen = clock.now
                lastChange.withLock { $0 = seen }
            }
            if case .others(let device) = change { sign(.rang(device: device)) }
        }
    }
}

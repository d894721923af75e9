import JournalKit
import JournalSync

/// Looks at a hub that cannot push (`HubChanges.polls`) on its schedule, waiting on the service's
/// clock, and says what it saw as a doorbell would: `ServerDoorbell` runs it, so a look that fails
/// is tried again with the doorbell's backoff, and its return is a `.listening` that syncs.
struct HubPolling<C: Clock>: Sendable where C.Duration == Duration {
    let poll: HubPoll
    let clock: C

    /// Looks until cancelled (returns) or a look fails (throws).
    func listen(_ sign: @escaping @Sendable (DoorbellSign) -> Void) async throws {
        _ = try await poll.look()
        sign(.listening)
        var lastChange = clock.now
        while true {
            do { try await clock.sleep(for: poll.schedule.wait(sinceChange: lastChange.duration(to: clock.now))) } catch { return }
            let change = try await poll.look()
            if change.isActivity { lastChange = clock.now }
            if case .others(let device) = change { sign(.rang(device: device)) }
        }
    }
}

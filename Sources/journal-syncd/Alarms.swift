import Synchronization

/// The loop's one-shot timers: a retry after a failure, a recheck of the journal. Each sends its
/// reason to the events when its delay is over. Their sleeps are children of the service's task group
/// (`run`), on the service's clock: the service owns them, cancelling it ends them, and a test moves
/// them with its clock.
final class Alarms<C: Clock>: Sendable where C.Duration == Duration {
    private struct Setting: Sendable {
        let reason: ChangeReasons
        let delay: Duration
        /// The setting's number, for an alarm a later setting replaces; nil for one that always rings.
        let generation: Int?
    }

    private let settings: AsyncStream<Setting>
    private let continuation: AsyncStream<Setting>.Continuation
    /// The number of the last setting of each replaceable alarm; cleared when it rang or was cleared.
    private let current = Mutex<(last: Int, live: [ChangeReasons.RawValue: Int])>((0, [:]))
    private let events: ChangeEvents
    private let clock: C

    init(events: ChangeEvents, clock: C) {
        (settings, continuation) = AsyncStream.makeStream()
        self.events = events
        self.clock = clock
    }

    /// Sends `reason` after `delay`, in place of an alarm of that reason set before and not yet rung.
    func set(_ reason: ChangeReasons, after delay: Duration) {
        let generation = current.withLock { state in
            state.last += 1
            state.live[reason.rawValue] = state.last
            return state.last
        }
        continuation.yield(Setting(reason: reason, delay: delay, generation: generation))
    }

    /// Sends `reason` after `delay`, whatever else is set.
    func ring(_ reason: ChangeReasons, after delay: Duration) {
        continuation.yield(Setting(reason: reason, delay: delay, generation: nil))
    }

    /// Takes back the alarm of `reason` set with `set`, if it has not rung.
    func clear(_ reason: ChangeReasons) {
        current.withLock { _ = $0.live.removeValue(forKey: reason.rawValue) }
    }

    /// Runs the alarms set, each a child task asleep on the clock, until cancelled.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await setting in settings {
                group.addTask { [self] in
                    do { try await clock.sleep(for: setting.delay) } catch { return }
                    if let generation = setting.generation {
                        let due = current.withLock { state in
                            guard state.live[setting.reason.rawValue] == generation else { return false }
                            state.live[setting.reason.rawValue] = nil
                            return true
                        }
                        guard due else { return }
                    }
                    events.send(setting.reason)
                }
            }
        }
    }
}

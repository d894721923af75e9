import Synchronization

/// The loop's one-shot timers: a retry after a failure, a recheck of the journal. Each sends its
/// reason to the events when its delay is over. Their sleeps are child tasks the service owns
/// (`ChildTasks`), on the service's clock: cancelling the service ends them, a retry replaced or
/// cleared stops sleeping, and a test moves them with its clock.
final class Alarms<C: Clock>: Sendable where C.Duration == Duration {
    private struct Live {
        var generation: Int
        var stop: ChildTasks.Stop
    }

    private let tasks = ChildTasks()
    /// The last setting of each replaceable alarm that has not rung or been cleared.
    private let current = Mutex<(last: Int, live: [ChangeReasons.RawValue: Live])>((0, [:]))
    private let events: ChangeEvents
    private let clock: C

    init(events: ChangeEvents, clock: C) {
        self.events = events
        self.clock = clock
    }

    /// Sends `reason` after `delay`, in place of an alarm of that reason set before and not yet rung.
    func set(_ reason: ChangeReasons, after delay: Duration) {
        current.withLock { state in
            state.last += 1
            let generation = state.last
            let stop = tasks.start { [self] in await sound(reason, after: delay, generation: generation) }
            state.live.updateValue(Live(generation: generation, stop: stop), forKey: reason.rawValue)?.stop()
        }
    }

    /// Sends `reason` after `delay`, whatever else is set.
    func ring(_ reason: ChangeReasons, after delay: Duration) {
        tasks.startToTheEnd { [self] in await sound(reason, after: delay, generation: nil) }
    }

    /// Takes back the alarm of `reason` set with `set`, if it has not rung.
    func clear(_ reason: ChangeReasons) {
        current.withLock { $0.live.removeValue(forKey: reason.rawValue) }?.stop()
    }

    /// Runs the alarms set until cancelled.
    func run() async { await tasks.run() }

    /// Sleeps out `delay` and sends `reason`, unless a later setting or a clearing came first (for a
    /// replaceable alarm, of number `generation`).
    private func sound(_ reason: ChangeReasons, after delay: Duration, generation: Int?) async {
        do { try await clock.sleep(for: delay) } catch { return }
        if let generation {
            let due = current.withLock { state in
                guard state.live[reason.rawValue]?.generation == generation else { return false }
                state.live[reason.rawValue] = nil
                return true
            }
            guard due else { return }
        }
        events.send(reason)
    }
}

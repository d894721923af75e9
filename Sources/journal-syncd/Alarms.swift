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
        /// Finished when the alarm is replaced or cleared: its sleep ends then. Nil for one that always rings.
        let stopped: AsyncStream<Never>?
    }

    private struct Live {
        var generation: Int
        var stop: AsyncStream<Never>.Continuation
    }

    private let settings: AsyncStream<Setting>
    private let continuation: AsyncStream<Setting>.Continuation
    /// The last setting of each replaceable alarm that has not rung or been cleared.
    private let current = Mutex<(last: Int, live: [ChangeReasons.RawValue: Live])>((0, [:]))
    private let events: ChangeEvents
    private let clock: C

    init(events: ChangeEvents, clock: C) {
        (settings, continuation) = AsyncStream.makeStream()
        self.events = events
        self.clock = clock
    }

    /// Sends `reason` after `delay`, in place of an alarm of that reason set before and not yet rung.
    func set(_ reason: ChangeReasons, after delay: Duration) {
        let (stopped, stop) = AsyncStream<Never>.makeStream()
        let generation = current.withLock { state in
            state.last += 1
            state.live.updateValue(Live(generation: state.last, stop: stop), forKey: reason.rawValue)?.stop.finish()
            return state.last
        }
        continuation.yield(Setting(reason: reason, delay: delay, generation: generation, stopped: stopped))
    }

    /// Sends `reason` after `delay`, whatever else is set.
    func ring(_ reason: ChangeReasons, after delay: Duration) {
        continuation.yield(Setting(reason: reason, delay: delay, generation: nil, stopped: nil))
    }

    /// Takes back the alarm of `reason` set with `set`, if it has not rung.
    func clear(_ reason: ChangeReasons) {
        current.withLock { $0.live.removeValue(forKey: reason.rawValue) }?.stop.finish()
    }

    /// Runs the alarms set, each a child task asleep on the clock until it rings or is stopped, until
    /// cancelled.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await setting in settings {
                group.addTask { [self] in
                    await withTaskGroup(of: Void.self) { alarm in
                        alarm.addTask { await self.sound(setting) }
                        if let stopped = setting.stopped { alarm.addTask { for await _ in stopped {} } }
                        await alarm.next()
                        alarm.cancelAll()
                    }
                }
            }
        }
    }

    /// Sleeps out `setting`'s delay and sends its reason, unless a later setting or a clearing came
    /// first.
    private func sound(_ setting: Setting) async {
        do { try await clock.sleep(for: setting.delay) } catch { return }
        if let generation = setting.generation {
            let due = current.withLock { state in
                guard state.live[setting.reason.rawValue]?.generation == generation else { return false }
                state.live[setting.reason.rawValue] = nil
                return true
            }
            guard due else { return }
        }
        events.send(setting.reason)
    }
}

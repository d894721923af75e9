import JournalKit
import Testing
import TestSupport

@testable import journal_syncd

/// The loop's one-shot timers, on a clock the test moves: a retry set again replaces the one before
/// (which stops sleeping), a cleared one never rings, a recheck always rings, and ending the service's
/// task ends them all.
@Suite(.onTestThreads, .timeLimit(.minutes(5))) struct AlarmsTests {
    @Test func aRetrySetAgainRingsOnceAtItsNewTimeAndAClearedOneNever() async {
        let clock = ManualClock()
        let events = ChangeEvents()
        let alarms = Alarms(events: events, clock: clock)
        // On a thread of its own, as the daemon runs it: in the whole suite, other tests block the
        // threads of Swift's small pool, and the alarms' tasks waited there past the time limit.
        let running = Task(executorPreference: SerialThreadExecutor()) { await alarms.run() }
        var wakes = events.makeAsyncIterator()

        alarms.set(.retry, after: .seconds(10))
        await clock.waitUntilAsleep(until: [.seconds(10)])
        alarms.set(.retry, after: .seconds(30))
        // The first is stopped, not left asleep until its time.
        await clock.waitUntilAsleep(until: [.seconds(30)])
        alarms.ring(.recheck, after: .seconds(20))
        await clock.waitUntilAsleep(until: [.seconds(20), .seconds(30)])
        clock.advance(by: .seconds(30))
        // Both are due, in one wake or two, and nothing else rings.
        var rang: ChangeReasons = []
        while rang != [.retry, .recheck], let wake = await wakes.next() { rang.formUnion(wake.reasons) }
        #expect(rang == [.retry, .recheck])

        alarms.set(.retry, after: .seconds(5))
        await clock.waitUntilAsleep(until: [.seconds(35)])
        alarms.clear(.retry)
        await clock.waitUntilAsleep(until: [])
        alarms.ring(.recheck, after: .seconds(1))
        await clock.waitUntilAsleep(until: [.seconds(31)])
        clock.advance(by: .seconds(5))
        // The recheck is the next wake: the cleared retry never rang.
        #expect(await wakes.next()?.reasons == .recheck)

        alarms.set(.retry, after: .seconds(60))
        await clock.waitUntilAsleep(until: [.seconds(95)])
        running.cancel()
        await running.value
        // Cancelling `run` ended its sleepers, which rang nothing.
        #expect(clock.sleeping == 0)
        events.finish()
        #expect(await wakes.next() == nil)
    }
}

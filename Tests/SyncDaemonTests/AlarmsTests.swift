import Testing
import TestSupport

@testable import journal_syncd

/// The loop's one-shot timers, on a clock the test moves: a retry set again replaces the one before, a
/// cleared one never rings, a recheck always rings, and ending the service's task ends them all.
@Suite(.onTestThreads) struct AlarmsTests {
    @Test func aRetrySetAgainRingsOnceAtItsNewTimeAndAClearedOneNever() async {
        let clock = ManualClock()
        let events = ChangeEvents()
        let alarms = Alarms(events: events, clock: clock)
        let running = Task { await alarms.run() }
        var wakes = events.makeAsyncIterator()

        alarms.set(.retry, after: .seconds(10))
        alarms.set(.retry, after: .seconds(30))
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(10))
        // The first setting woke and rang nothing: the clock has the second alone asleep on it.
        await clock.waitForSleepers(1)
        alarms.ring(.recheck, after: .seconds(20))
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(20))
        // At 30 s both are due, in one wake or two, and nothing else rings.
        var rang: ChangeReasons = []
        while rang != [.retry, .recheck] { rang.formUnion(await wakes.next()?.reasons ?? []) }

        alarms.set(.retry, after: .seconds(5))
        await clock.waitForSleepers(1)
        alarms.clear(.retry)
        clock.advance(by: .seconds(5))
        alarms.ring(.recheck, after: .seconds(1))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        // The recheck after the cleared retry is the next wake: the retry never rang.
        #expect(await wakes.next()?.reasons == .recheck)

        alarms.set(.retry, after: .seconds(60))
        await clock.waitForSleepers(1)
        running.cancel()
        await running.value
        // Cancelling `run` ended its sleepers, which rang nothing.
        #expect(clock.sleeping == 0)
        events.finish()
        #expect(await wakes.next() == nil)
    }
}

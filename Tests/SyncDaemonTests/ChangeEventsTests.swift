import Testing
import TestSupport

@testable import journal_syncd

@Suite(.onTestThreads) struct ChangeEventsTests {
    @Test func aBurstWhileTheLoopIsBusyIsOneElementWithEveryReason() async {
        let events = ChangeEvents()
        events.send(.startup)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.reasons == .startup)
        // The loop is "busy" here: nothing reads while these arrive.
        events.send(.database)
        events.send(.watchdog)
        events.send(.database)
        events.send(.hub)
        #expect(await iterator.next()?.reasons == [.database, .watchdog, .hub])
        events.send(.tick)
        #expect(await iterator.next()?.reasons == .tick)
        events.finish()
        #expect(await iterator.next() == nil)
    }

    @Test func aWatchdogTickNeverSwallowsAChange() async {
        let events = ChangeEvents()
        var iterator = events.makeAsyncIterator()
        events.send(.database)
        events.send(.watchdog)
        let reasons = await iterator.next()?.reasons
        #expect(reasons?.contains(.database) == true)
        #expect(reasons?.wantsSync == true)
        events.send(.watchdog)
        #expect(await iterator.next()?.reasons.wantsSync == false)
    }

    @Test func sendersOnManyTasksLoseNothing() async {
        let events = ChangeEvents()
        let all: [ChangeReasons] = [.database, .hub, .tick, .request, .retry, .watchdog, .startup, .recheck]
        await withTaskGroup(of: Void.self) { group in
            for reason in all { group.addTask { for _ in 0..<100 { events.send(reason) } } }
        }
        var seen: ChangeReasons = []
        var iterator = events.makeAsyncIterator()
        events.finish()
        while let wake = await iterator.next() { seen.formUnion(wake.reasons) }
        #expect(seen == ChangeReasons(all))
    }
}

@Suite(.onTestThreads) struct BackoffTests {
    @Test func doublesWithJitterUpToThirtyMinutesAndResetsOnSuccess() {
        var backoff = Backoff()
        var random = SystemRandomNumberGenerator()
        var expected = Backoff.initial
        for _ in 0..<15 {
            let delay = backoff.fail(using: &random)
            let base = min(expected, Backoff.maximum)
            #expect(delay >= base && delay <= min(base * 1.25, Backoff.maximum))
            expected = expected * 2
        }
        #expect(backoff.fail(using: &random) == Backoff.maximum)
        backoff.succeed()
        let first = backoff.fail(using: &random)
        #expect(first >= Backoff.initial && first <= Backoff.initial * 1.25)
    }
}

@Suite(.onTestThreads) struct TickerTests {
    @Test func ticksOnlyWhenItsClockSaysSo() async throws {
        let clock = ManualClock()
        let events = ChangeEvents()
        let ticker = Task { await Ticker(interval: .seconds(300), reason: .tick, clock: clock).feed(events) }
        defer { ticker.cancel() }
        var iterator = events.makeAsyncIterator()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(299))
        events.send(.hub)
        #expect(await iterator.next()?.reasons == .hub)
        clock.advance(by: .seconds(1))
        #expect(await iterator.next()?.reasons == .tick)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(300))
        #expect(await iterator.next()?.reasons == .tick)
    }
}

@Suite(.onTestThreads) struct IntervalArgumentTests {
    @Test(arguments: [("90", 90), ("30s", 30), ("5m", 300), ("2h", 7200), ("1hour", 3600), ("24h", 86400)])
    func readsDurations(text: String, seconds: Int64) {
        #expect(IntervalArgument(argument: text)?.duration == .seconds(seconds))
    }

    @Test(arguments: ["", "0", "-5m", "5 minutes", "m", "5d", "5s", "25h", "9999999999999999h", "99999999999"])
    func refusesOthers(text: String) {
        #expect(IntervalArgument(argument: text) == nil)
    }
}

import Testing
import TestSupport

@testable import JournalKit

@Suite(.onTestThreads) struct HybridLogicalClockTests {
    let now = Timestamp(milliseconds: 1_795_262_400_000)

    @Test func ticksFollowRealTimeAndNeverRepeat() {
        var clock = HybridLogicalClock()
        let first = clock.tick(now: now)
        let second = clock.tick(now: now)
        let later = clock.tick(now: now + .seconds(1))
        let backwards = clock.tick(now: now - .seconds(60))
        #expect(first == HybridTimestamp(milliseconds: now.milliseconds))
        #expect(second == HybridTimestamp(milliseconds: now.milliseconds, counter: 1))
        #expect(later == HybridTimestamp(milliseconds: now.milliseconds + 1000))
        #expect(backwards > later)
    }

    @Test func receivingMovesPastTheRemoteReadingWithinTheDriftBound() {
        var clock = HybridLogicalClock()
        let remote = HybridTimestamp(milliseconds: now.milliseconds + 60_000, counter: 7)
        clock.receive(remote, now: now)
        #expect(clock.tick(now: now) > remote)

        var guarded = HybridLogicalClock()
        let farFuture = HybridTimestamp(milliseconds: now.milliseconds + 86_400_000)
        guarded.receive(farFuture, now: now)
        let bound = HybridTimestamp(milliseconds: (now + HybridLogicalClock.maximumDrift).milliseconds)
        #expect(guarded.last == bound)
        #expect(guarded.tick(now: now) < farFuture)
    }

    @Test func counterOverflowCarriesIntoMilliseconds() {
        var clock = HybridLogicalClock(last: HybridTimestamp(milliseconds: now.milliseconds, counter: 0xFFFF))
        #expect(clock.tick(now: now) == HybridTimestamp(milliseconds: now.milliseconds + 1))
    }
}

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

    /// A reading kept from a clock that ran ahead (three years, once) is left behind at the next tick:
    /// the clock follows real time again, and says what it left.
    @Test func aReadingFurtherAheadThanTheDriftBoundIsLeftBehind() {
        let kept = HybridTimestamp(milliseconds: now.milliseconds + 3 * 365 * 86_400_000, counter: 4)
        var clock = HybridLogicalClock(last: kept)
        #expect(clock.tick(now: now) == HybridTimestamp(milliseconds: now.milliseconds))
        #expect(clock.leftBehind == kept)
        #expect(clock.tick(now: now) == HybridTimestamp(milliseconds: now.milliseconds, counter: 1))
        // Within the bound (a clock stepped back a minute by NTP), readings go on from the one kept.
        let near = HybridTimestamp(milliseconds: now.milliseconds + 60_000)
        var stepped = HybridLogicalClock(last: near)
        #expect(stepped.tick(now: now) == near.successor)
        #expect(stepped.leftBehind == nil)
        // A received reading from the future never pulls the clock past the bound, nor keeps it there.
        var receiving = HybridLogicalClock()
        receiving.receive(kept, now: now)
        #expect(receiving.tick(now: now) <= HybridLogicalClock.bound(now).successor)
    }

    @Test func counterOverflowCarriesIntoMilliseconds() {
        var clock = HybridLogicalClock(last: HybridTimestamp(milliseconds: now.milliseconds, counter: 0xFFFF))
        #expect(clock.tick(now: now) == HybridTimestamp(milliseconds: now.milliseconds + 1))
    }
}

import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// What the pull does at a position of another device's log, from what trying its segments found,
/// without a hub.
@Suite(.onTestThreads) struct LogPositionTests {
    let device = DeviceID(rawValue: "00000000-0000-4000-8000-00000000000b")
    let one = SegmentName(first: 4, last: 4)
    let two = SegmentName(first: 4, last: 6)

    func step(_ attempts: LogPosition.Attempts, relisted: Int = 0, hasCard: Bool = true, signedFrom: Int64? = nil) -> LogPosition.Step {
        LogPosition.step(attempts, anchor: 3, relisted: relisted, hasCard: hasCard, signedFrom: signedFrom)
    }

    @Test func aSegmentGoneIsListedAgainAFewTimesThenWaitedFor() {
        var attempts = LogPosition.Attempts(device: device)
        attempts.gone = two
        #expect(step(attempts) == .relist)
        #expect(step(attempts, relisted: SyncEngine.relistingsPerLog) == .wait(first: 4, last: 6))
    }

    @Test func whatStopsTheLogComesBeforeWhatOpened() {
        var attempts = LogPosition.Attempts(device: device)
        attempts.notAdmitted = "not a member"
        #expect(step(attempts) == .passOver("not a member"))
        var waiting = LogPosition.Attempts(device: device)
        waiting.awaitingCard = one
        #expect(step(waiting) == .wait(first: 4, last: 4))
    }

    @Test func unsignedSegmentsArePassedOverOrSkippedByWhatTheCardSays() {
        var attempts = LogPosition.Attempts(device: device)
        attempts.unvouched = [(two, "unvouched 4-6"), (one, "unvouched 4")]
        #expect(step(attempts, hasCard: false) == .passOver("unvouched 4-6"))
        #expect(step(attempts, signedFrom: 6) == .skipUnsigned(one, "unvouched 4"))
        #expect(step(attempts, signedFrom: 4) == .fail([
            SegmentFailure(device: device, segment: two.fileName, reason: "unvouched 4-6"),
            SegmentFailure(device: device, segment: one.fileName, reason: "unvouched 4"),
        ]))
        var revoked = LogPosition.Attempts(device: device)
        revoked.pastRevocation = "revoked"
        #expect(step(revoked) == .passOver("revoked"))
        revoked.failures = [SegmentFailure(device: device, segment: one.fileName, reason: "damaged")]
        #expect(step(revoked) == .fail(revoked.failures))
    }

    @Test func onlyFilesThatAreNoSegmentsMeanLookingAgain() {
        #expect(step(LogPosition.Attempts(device: device)) == .lookAgain)
    }
}

@testable import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// What the check of a device's own log decides, from what it read, without a hub: copy tools'
/// leftovers are owned and left, a restored journal takes back what it had published, and only two
/// segments at one position call the journal a copy.
@Suite(.onTestThreads) struct OwnLogReviewTests {
    static func entry(_ first: Int64, _ last: Int64, _ fingerprint: String = "f") -> SegmentEntry {
        SegmentEntry(name: SegmentName(first: first, last: last), fingerprint: fingerprint)
    }

    static func written(_ first: Int64, _ last: Int64, _ fingerprint: String = "f") -> PublishedSegment {
        PublishedSegment(range: PublishedRange(first: first, last: last), fingerprint: fingerprint)
    }

    static let someRecord: AnyReplicated = {
        let drink = Drink(
            id: DrinkID(rawValue: "00000000-0000-4000-8000-000000000001"), kind: "espresso", caffeineMg: 64,
            consumedAt: Timestamp(milliseconds: 1_795_262_400_000), note: nil)
        return AnyReplicated(Replicated(
            payload: drink, isDeleted: false, clock: HybridTimestamp(milliseconds: 1_795_262_400_000),
            origin: DeviceID(rawValue: "00000000-0000-4000-8000-00000000000a"), sequence: 1))
    }()

    @Test func olderCopiesACopyToolBroughtBackAreLeftNotCalledACopy() {
        let log = DeviceLog(
            segments: [Self.entry(1, 1, "old"), Self.entry(1, 4), Self.entry(3, 3, "old")],
            strays: ["000000000001-000000000004 (conflicted copy 2026-11-21).seg", "notes.txt"])
        let review = OwnLogReview.make(
            published: [Self.written(1, 4)], publishedThrough: 4, log: log,
            findings: [SegmentName(first: 1, last: 1): .known, SegmentName(first: 3, last: 3): .known], canRemoveSegments: true)
        #expect(review.copiedBy.isEmpty)
        #expect(review.actions == [
            .leave("000000000001-000000000004 (conflicted copy 2026-11-21).seg", reason: StrayName.reason("000000000001-000000000004 (conflicted copy 2026-11-21).seg")),
            .setAside("notes.txt", reason: StrayName.junkReason),
            .leave("000000000001-000000000001.seg", reason: OwnLogReview.staleReason),
            .leave("000000000003-000000000003.seg", reason: OwnLogReview.staleReason),
        ])
        #expect(StrayName.reason("000000000001-000000000004 (conflicted copy 2026-11-21).seg").contains("segment 000000000001-000000000004.seg"))
    }

    /// A journal put back from a backup that knew segments 1-2: its later self published 3-5 and
    /// compacted 1-2 with them into 1-5. Both are its own, taken back; 1-2 is forgotten, not rewritten.
    @Test func whatAJournalPublishedBeforeItWasRestoredIsTakenBack() {
        let log = DeviceLog(segments: [Self.entry(1, 5), Self.entry(6, 7)])
        let review = OwnLogReview.make(
            published: [Self.written(1, 2)], publishedThrough: 2, log: log,
            findings: [SegmentName(first: 1, last: 5): .unknown([Self.someRecord]), SegmentName(first: 6, last: 7): .unknown([])],
            canRemoveSegments: true)
        #expect(review.copiedBy.isEmpty)
        #expect(review.actions == [
            .takeBack(SegmentName(first: 1, last: 5), fingerprint: "f", records: [Self.someRecord]),
            .takeBack(SegmentName(first: 6, last: 7), fingerprint: "f", records: []),
            .forget(PublishedRange(first: 1, last: 2)),
        ])
    }

    /// Two different segments of this device at one position: another journal writes as it.
    @Test func aSegmentBesideOneThisJournalWroteShowsACopy() {
        let log = DeviceLog(segments: [Self.entry(1, 4), Self.entry(2, 3)], strays: ["junk"])
        let review = OwnLogReview.make(
            published: [Self.written(1, 4)], publishedThrough: 4, log: log,
            findings: [SegmentName(first: 2, last: 3): .unknown([Self.someRecord])], canRemoveSegments: true)
        #expect(review.copiedBy == ["000000000002-000000000003.seg"])
        #expect(review.actions == [.setAside("junk", reason: StrayName.junkReason)])
        // One that wholly covers a segment of ours is a compaction of ours, even with ours still there
        // (brought back by a copy tool or the hub's operator): taken back.
        let covering = OwnLogReview.make(
            published: [Self.written(1, 2), Self.written(3, 4)], publishedThrough: 4,
            log: DeviceLog(segments: [Self.entry(1, 2), Self.entry(3, 4), Self.entry(3, 5)]),
            findings: [SegmentName(first: 3, last: 5): .unknown([Self.someRecord])], canRemoveSegments: true)
        #expect(covering.copiedBy.isEmpty && covering.actions.first == .takeBack(SegmentName(first: 3, last: 5), fingerprint: "f", records: [Self.someRecord]))
        // An unsigned one is nobody's to take back.
        let unsigned = OwnLogReview.make(
            published: [Self.written(1, 2)], publishedThrough: 2, log: DeviceLog(segments: [Self.entry(1, 2), Self.entry(3, 3)]),
            findings: [SegmentName(first: 3, last: 3): .unsigned], canRemoveSegments: true)
        #expect(unsigned.actions == [.leave("000000000003-000000000003.seg", reason: OwnLogReview.unsignedReason)])
        // A copy that overlaps a segment of ours it does not wholly cover, even once ours is gone.
        let partial = OwnLogReview.make(
            published: [Self.written(1, 4)], publishedThrough: 4, log: DeviceLog(segments: [Self.entry(3, 6)]),
            findings: [SegmentName(first: 3, last: 6): .unknown([Self.someRecord])], canRemoveSegments: true)
        #expect(partial.copiedBy == ["000000000003-000000000006.seg"])
    }

    @Test func segmentsOfOursSettleAsBefore() {
        let log = DeviceLog(segments: [Self.entry(1, 2), Self.entry(3, 4, "moved"), Self.entry(5, 5, "bad")])
        let review = OwnLogReview.make(
            published: [Self.written(1, 2), Self.written(3, 4), Self.written(5, 5), Self.written(6, 6), Self.written(7, 8, "unwritten")],
            publishedThrough: 6, log: log,
            findings: [SegmentName(first: 3, last: 4): .known, SegmentName(first: 5, last: 5): .notOurs], canRemoveSegments: true)
        #expect(review.actions == [
            .refingerprint(PublishedRange(first: 3, last: 4), "moved"),
            .replaceDamaged(SegmentName(first: 5, last: 5)),
            .rewrite(PublishedRange(first: 6, last: 6)),
            .forget(PublishedRange(first: 7, last: 8)),
        ])
        let kept = OwnLogReview.make(
            published: [Self.written(5, 5)], publishedThrough: 5, log: DeviceLog(segments: [Self.entry(5, 5, "bad")]),
            findings: [SegmentName(first: 5, last: 5): .notOurs], canRemoveSegments: false)
        #expect(kept.actions == [.reportDamaged(SegmentName(first: 5, last: 5))])
    }
}

import JournalKit
import Testing
import TestSupport

@testable import JournalSync
@testable import journal_syncd

/// Each reason the daemon wakes for, mapped to the work of its sync: the scope `LoopPolicy` gives it,
/// then the plan the engine carries out (`SyncPlan`), without a hub or a journal.
@Suite(.onTestThreads) struct WakeWorkTests {
    let own = DeviceID(rawValue: "0b7b5a52-3c1e-4d6f-9a51-6f6c2d1e8a00")
    let a = DeviceID(rawValue: "0b7b5a52-3c1e-4d6f-9a51-6f6c2d1e8a01")
    let ledger = SyncLedger(hubID: "hub")
    /// A whole sync on a hub whose segments can be replaced (a folder), in order.
    let whole: [SyncPlan.Step] = [
        .readCardsAndEpochs, .checkOwnLog, .announceSigning, .publish, .compact(.afterWriting), .pull, .noteKeptFromShutOut, .writeCards,
    ]

    func work(_ reasons: ChangeReasons, rang: RangLogs = RangLogs(), wholeSyncDone: Bool = true, canRemoveSegments: Bool = true) -> SyncPlan {
        SyncPlan.make(
            LoopPolicy.scope(reasons, rang: rang), own: own, wholeSyncDone: wholeSyncDone, canRemoveSegments: canRemoveSegments,
            ledger: ledger)
    }

    @Test func aRingThatNamesALogReadsThatLogAloneAndTheWholeHubOnlyWhenItCannotSettle() {
        #expect(work(.hub, rang: .log(a)) == SyncPlan(rangLogs: [a], steps: whole))
        // Its own log rang (its own write echoing back): nothing to read.
        #expect(work(.hub, rang: .log(own)) == SyncPlan(rangLogs: [], steps: whole))
    }

    @Test func aRingBeforeAnyWholeSyncReadsTheWholeHub() {
        // A log-only read relies on the cards, key epochs and membership a whole sync read.
        #expect(work(.hub, rang: .log(a), wholeSyncDone: false) == SyncPlan(rangLogs: nil, steps: whole))
    }

    @Test func everyOtherReasonIsAWholeSync() {
        var unnamed = RangLogs.log(a)
        unnamed.formUnion(.unnamedRing)
        #expect(work(.hub, rang: unnamed) == SyncPlan(rangLogs: nil, steps: whole))
        for reason: ChangeReasons in [.database, .tick, .request, .retry, .startup, .recheck] {
            #expect(work(reason) == SyncPlan(rangLogs: nil, steps: whole), "\(reason)")
            #expect(work([reason, .hub], rang: .log(a)) == SyncPlan(rangLogs: nil, steps: whole), "\(reason)+hub")
        }
    }

    @Test func compactionIsDueAfterAWriteOrAnUnfinishedCompactionAndNeverOnAServer() {
        #expect(work(.tick, canRemoveSegments: false).steps == whole.filter { $0 != .compact(.afterWriting) })
        let unfinished = SyncLedger(
            hubID: "hub", publishedThrough: 20,
            published: [
                PublishedSegment(range: PublishedRange(first: 1, last: 20), fingerprint: "a"),
                PublishedSegment(range: PublishedRange(first: 11, last: 20), fingerprint: "b"),
            ])
        let plan = SyncPlan.make(.whole, own: own, wholeSyncDone: true, canRemoveSegments: true, ledger: unfinished)
        #expect(plan.steps.contains(SyncPlan.Step.compact(.always)))
    }
}

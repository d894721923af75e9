import PropertyBased
import Testing
import TestSupport

@testable import JournalKit

/// A sync reads its ledger once and keeps its copy in step with each write: after any run of the
/// ledger's writes, the copy is what reading the file again gives.
@Suite(.onTestThreads) struct SyncLedgerTests {
    static let hubID: HubID = "ledger-hub"
    static let peers = (1...3).map { DeviceID(rawValue: "0b7b5a52-3c1e-4d6f-9a51-6f6c2d1e8a0\($0)") }

    /// Writes (0...6, each its kind) on a few positions and devices, so that ranges repeat and overlap.
    static let writes = zip(Gen.int(in: 0...6), Gen.int(in: 1...12), Gen.int(in: 0...2)).array(of: 1...40)

    @Test func theCopyASyncHoldsIsWhatTheFileSays() async throws {
        await checkProperty(count: 100, input: Self.writes) { writes in
            try await withTemporaryDirectory { folder in
                let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
                try await store.joinHub(id: Self.hubID, kind: "folder", location: folder + "/hub")
                guard var ledger = try await store.syncLedger(hubID: Self.hubID) else {
                    Issue.record("a joined journal has a ledger")
                    return
                }
                for (index, (kind, position, pick)) in writes.enumerated() {
                    let range = PublishedRange(first: Int64(position), last: Int64(position + pick))
                    let peer = Self.peers[pick]
                    switch kind {
                    case 0: try await store.markPublished(through: Int64(position), in: &ledger)
                    case 1: try await store.recordPublishing(range, in: &ledger)
                    case 2: try await store.forgetPublishing(range, in: &ledger)
                    case 3: try await store.recordWritten("f\(index)", of: range, publishing: false, in: &ledger)
                    case 4: try await store.recordWritten("f\(index)", of: range, publishing: true, in: &ledger)
                    case 5: _ = try await store.applyReceived([], from: peer, through: Int64(position), in: &ledger)
                    default: try await store.refuseLog(of: peer, through: Int64(position), in: &ledger)
                    }
                    #expect(try await store.syncLedger(hubID: Self.hubID) == ledger, "writes \(writes), at \(index)")
                }
            }
        }
    }

    @Test func aJournalNotJoinedToTheHubHasNoLedgerOfIt() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            #expect(try await store.syncLedger(hubID: Self.hubID) == nil)
            try await store.joinHub(id: "another-hub", kind: "folder", location: folder + "/hub")
            #expect(try await store.syncLedger(hubID: Self.hubID) == nil)
        }
    }

    @Test func whereALogIsReadFromAndWhatNeedNotBeListedAgain() {
        let own = DeviceID(rawValue: "0b7b5a52-3c1e-4d6f-9a51-6f6c2d1e8a09")
        let ledger = SyncLedger(
            hubID: Self.hubID, publishedThrough: 30,
            published: [
                PublishedSegment(range: PublishedRange(first: 21, last: 40), fingerprint: "c"),
                PublishedSegment(range: PublishedRange(first: 1, last: 20), fingerprint: "a"),
                PublishedSegment(range: PublishedRange(first: 41, last: 41), fingerprint: nil),
            ],
            anchors: [Self.peers[0]: 7, Self.peers[1]: 3], refusedLogs: [Self.peers[1]: 9, Self.peers[2]: 4])
        #expect(ledger.readFrom(Self.peers[0]) == 7)
        #expect(ledger.readFrom(Self.peers[1]) == 9)
        #expect(ledger.readFrom(Self.peers[2]) == 4)
        // Its own log: only what was published and verified (20; 40 is past the published position,
        // and 41 was never confirmed written).
        #expect(ledger.positionsKnown(own: own) == [Self.peers[0]: 7, Self.peers[1]: 9, Self.peers[2]: 4, own: 20])
        #expect(ledger.nextSegmentFirst == 42)
        #expect(!ledger.hasNestedSegments)
        let nested = SyncLedger(
            hubID: Self.hubID,
            published: [
                PublishedSegment(range: PublishedRange(first: 1, last: 20), fingerprint: "a"),
                PublishedSegment(range: PublishedRange(first: 5, last: 6), fingerprint: "b"),
            ])
        #expect(nested.hasNestedSegments)
    }
}

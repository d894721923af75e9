import Testing
import TestSupport

@testable import JournalKit

/// What a peer sent is applied without waiting for the disk (the hub still has it, and its anchor moves
/// with it); what a person writes next waits again, whether the apply went through or failed.
@Suite(.onTestThreads) struct DiskWaitTests {
    @Test func aPersonsWriteWaitsForTheDiskAfterAnApply() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            #expect(try await store.synchronousSetting() == Self.full)
            let peer = DeviceID(rawValue: UUIDText.random())
            let drink = AnyReplicated(Replicated(
                payload: Drink(id: DrinkID(rawValue: UUIDText.random()), kind: "espresso", caffeineMg: 64, consumedAt: Timestamp(milliseconds: 1_000)),
                isDeleted: false, clock: HybridTimestamp(milliseconds: 1_000), origin: peer, sequence: 1))
            #expect(try await store.applyReceived([drink], from: peer, through: 1, hubID: "hub").applied == 1)
            #expect(try await store.synchronousSetting() == Self.full)
            #expect(try await store.anchors(hubID: "hub") == [peer: 1])
        }
    }

    @Test func aFailedApplyLeavesWritesWaitingForTheDisk() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            await #expect(throws: SQLiteError.self) { try await store.failingWithoutWaitingForTheDisk() }
            #expect(try await store.synchronousSetting() == Self.full)
        }
    }

    /// SQLite's `PRAGMA synchronous` for FULL.
    static let full: Int64 = 2
}

extension JournalStore {
    fileprivate func synchronousSetting() throws -> Int64? { try connection.queryInteger("PRAGMA synchronous") }

    fileprivate func failingWithoutWaitingForTheDisk() throws {
        try connection.withoutWaitingForTheDisk { try connection.run("INSERT INTO no_such_table VALUES (1)") }
    }
}

import Foundation
import JournalKit
import Testing
import TestSupport

@testable import FolderHub
@testable import JournalSync

@Suite(.onTestThreads) struct SyncEngineTests {
    @Test func addsEditsAndDeletesReachTheOtherMachine() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, clock: ManualTestClock())
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key, clock: ManualTestClock())
            let espresso = try await a.store.add(drink(note: "first"))
            let tea = try await a.store.add(drink("black-tea", mg: 47, minute: 5))
            #expect(try await a.sync().published == 2)
            #expect(try await b.sync().received == 2)
            #expect(try await b.store.drinks() == [espresso, tea])

            let edited = try await b.store.edit(espresso.id, DrinkEdit(caffeineMg: 70, note: "edited on b"))
            _ = try await b.store.remove([tea.id])
            try await b.sync()
            let report = try await a.sync()
            #expect(report.received == 2)
            #expect(try await a.store.drinks() == [edited])
            #expect(try await a.state() == b.state())
        }
    }

    @Test func theLaterOfTwoConflictingEditsWinsOnBoth() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let clockA = ManualTestClock()
            let clockB = ManualTestClock()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, clock: clockA)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key, clock: clockB)
            let shared = try await a.store.add(drink())
            try await a.sync()
            try await b.sync()
            clockA.advance(.seconds(10))
            clockB.advance(.seconds(20))
            _ = try await a.store.edit(shared.id, DrinkEdit(note: "a, earlier"))
            let later = try await b.store.edit(shared.id, DrinkEdit(note: "b, later"))
            try await a.sync()
            try await b.sync()
            try await a.sync()
            #expect(try await a.store.drinks() == [later])
            #expect(try await b.store.drinks() == [later])
        }
    }

    @Test func syncingAgainWhenNothingChangedMovesAndWritesNothing() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            _ = try await a.store.add(drink())
            _ = try await b.store.add(drink("cola"))
            try await a.sync()
            try await b.sync()
            try await a.sync()
            let hubBefore = snapshot(folder + "/hub")
            let anchorsBefore = try await a.store.anchors(hubID: a.engine.hub.id)
            for machine in [a, b] {
                let report = try await machine.sync()
                #expect(!report.movedAnything)
                #expect(report.summary == "Nothing to sync: this journal and the hub agree.")
            }
            #expect(snapshot(folder + "/hub") == hubBefore)
            #expect(try await a.store.anchors(hubID: a.engine.hub.id) == anchorsBefore)
        }
    }

    @Test(arguments: [0, 1, 5, 6, 11])
    func pagingPublishesAndAppliesEveryRecordAtExactBoundaries(count: Int) async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, segmentSize: 5)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key, segmentSize: 5)
            for minute in 0..<count { _ = try await a.store.add(drink(minute: Int64(minute))) }
            let published = try await a.sync()
            #expect(published.published == count)
            #expect(published.segmentsWritten == (count + 4) / 5)
            #expect(try await a.engine.hub.log(of: a.store.deviceID).names.count == (count + 4) / 5)
            let received = try await b.sync()
            #expect(received.received == count)
            #expect(try await b.state() == a.state())
            #expect(try await a.store.unpublishedCount(hubID: a.engine.hub.id) == 0)
        }
    }

    @Test func theHubNeverHoldsADrinkANoteOrTheKeyInPlainText() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key)
            // An amount whose text no hex field can hold by chance (128 was found in a key check).
            let added = try await a.store.add(drink("double-espresso", mg: 123.456, note: "secret-note-text"))
            try await a.sync()
            let secrets = ["double-espresso", "secret-note-text", key.hex, added.id.rawValue, "123.456"]
            for (path, bytes) in snapshot(folder + "/hub") {
                let text = String(decoding: bytes, as: UTF8.self)
                for secret in secrets { #expect(!text.contains(secret), "\(path) contains \(secret)") }
            }
        }
    }

    @Test func aWrongKeyIsRefusedBeforeAnythingIsReadOrWritten() async throws {
        try await withTemporaryDirectory { folder in
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: SyncKey())
            _ = try await a.store.add(drink())
            try await a.sync()
            let before = snapshot(folder + "/hub")
            let refused = await #expect(throws: SyncError.self) {
                _ = try await FolderHub.open(folder: folder + "/hub", key: SyncKey())
            }
            guard case .hub(let failure)? = refused, case .wrongKey = failure.condition else {
                Issue.record("\(String(describing: refused))")
                return
            }
            #expect(failure.hub == folder + "/hub")
            #expect(snapshot(folder + "/hub") == before)
        }
    }

    @Test func aHubOfANewerFormatIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let hub = folder + "/hub/journal-hub-v1"
            try FileManager.default.createDirectory(atPath: hub, withIntermediateDirectories: true)
            try Data(#"{"format": 2, "hub_id": "x", "key_check": "y", "something": "new"}"#.utf8).write(to: URL(fileURLWithPath: hub + "/hub.json"))
            await #expect(throws: SyncError.hubFormatTooNew(hub: folder + "/hub", format: 2, supported: 1)) {
                _ = try await FolderHub.open(folder: folder + "/hub", key: SyncKey())
            }
            try Data("{not json".utf8).write(to: URL(fileURLWithPath: hub + "/hub.json"))
            await #expect(throws: SyncError.corruptHub(hub: folder + "/hub", problem: "hub.json is not valid JSON with a format number")) {
                _ = try await FolderHub.open(folder: folder + "/hub", key: SyncKey())
            }
        }
    }

    @Test func aRecordWithAnImpossibleClockIsMalformed() throws {
        let device = DeviceID(rawValue: "22222222-2222-4222-8222-222222222222")
        let record = #"[["11111111-1111-4111-8111-111111111111","espresso",64,0,null,0,"9223372036854775807","22222222-2222-4222-8222-222222222222"]]"#
        let impossible = try SegmentCodec.decode(Array(record.utf8), format: 1, device: device)
        #expect(impossible.records.isEmpty)
        #expect(impossible.refused.count == 1)
        let fine = record.replacingOccurrences(of: "9223372036854775807", with: "117640724889600000")
        #expect(try SegmentCodec.decode(Array(fine.utf8), format: 1, device: device).records.count == 1)
    }

    @Test func aCopiedDatabaseIsRefusedUntilItTakesANewIdentity() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let original = try await Machine.make(folder, name: "original", hubFolder: folder + "/hub", key: key)
            _ = try await original.store.add(drink())
            try await original.sync()
            // The database is copied to another machine, and both go on recording.
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(atPath: folder + "/original.db" + suffix, toPath: folder + "/copy.db" + suffix)
            }
            let copyStore = try await JournalStore(path: folder + "/copy.db", clock: sameInstant, physicalClock: sameInstant)
            let copy = Machine(store: copyStore, engine: SyncEngine(store: copyStore, hub: original.engine.hub, key: key, deviceKeys: DeviceKeys()))
            let onCopy = try await copy.store.add(drink("cola", note: "made on the copy"))
            let before = snapshot(folder + "/hub")
            await #expect(throws: SyncError.copiedFile(path: folder + "/copy.db")) { try await copy.sync() }
            #expect(snapshot(folder + "/hub") == before)

            _ = try await copy.store.adoptNewDeviceIdentity()
            let renewedStore = try await JournalStore(path: folder + "/copy.db", clock: sameInstant, physicalClock: sameInstant)
            let renewed = Machine(store: renewedStore, engine: SyncEngine(store: renewedStore, hub: original.engine.hub, key: key, deviceKeys: DeviceKeys()))
            _ = try await original.store.add(drink("black-tea"))
            try await renewed.sync()
            try await original.sync()
            try await renewed.sync()
            #expect(try await original.store.drinks().count == 3)
            #expect(try await original.store.drinks().contains(onCopy))
            #expect(Set(try await renewed.store.drinks()) == Set(try await original.store.drinks()))
        }
    }

    /// A backup written over the journal's own file (`cp backup.db journal.db`: same inode, older
    /// content) is a device that was offline: it takes back what it had published since, from its own
    /// log, publishes what it wrote since the restore after it, and loses nothing.
    @Test func aBackupRestoredInPlaceTakesBackWhatTheHubHolds() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let path = folder + "/a.db"
            var machine: Machine? = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key)
            let reader = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            _ = try await machine?.store.add(drink())
            try await machine?.sync()
            let backup = try Data(contentsOf: URL(fileURLWithPath: path))
            let backupWAL = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
            _ = try await machine?.store.add(drink("soft-drink"))
            try await machine?.sync()
            let hub = try #require(machine?.engine.hub)
            // The same machine: its device keys are the ones it had.
            let keys = try #require(machine?.engine.deviceKeys)
            machine = nil
            // Written over the same file, as `cp backup.db journal.db` does: same inode, older content.
            try backup.write(to: URL(fileURLWithPath: path))
            try backupWAL.write(to: URL(fileURLWithPath: path + "-wal"))
            try? FileManager.default.removeItem(atPath: path + "-shm")
            let restored = try await JournalStore(path: path, clock: sameInstant, physicalClock: sameInstant)
            _ = try await restored.add(drink("black-tea"))
            let engine = SyncEngine(store: restored, hub: hub, key: key, deviceKeys: keys)
            let report = try await engine.sync()
            // What it took back lives at new positions, past the segment it came in, and goes up there too.
            #expect(report.takenBack == 1 && report.published == 2, "\(report)")
            #expect(Set(try await restored.drinks().map(\.kind)) == ["espresso", "soft-drink", "black-tea"])
            try await reader.sync()
            #expect(Set(try await reader.store.drinks()) == Set(try await restored.drinks()))
            #expect(try await engine.sync().summary == "Nothing to sync: this journal and the hub agree.")
        }
    }

    @Test func recordsReceivedFromTheFutureStillOrderButDoNotDragTheClock() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let now = Timestamp(milliseconds: 1_795_262_400_000)
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, clock: FixedClock(now + .seconds(86_400)))
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key, clock: FixedClock(now))
            let fromTheFuture = try await a.store.add(drink())
            try await a.sync()
            try await b.sync()
            let local = try await b.store.add(drink("cola"))
            let records = try await b.store.changes(since: nil, limit: 10).records
            let mine = try #require(records.first { $0.payload.id == local.id })
            #expect(mine.clock.milliseconds <= (now + HybridLogicalClock.maximumDrift).milliseconds)
            // An edit here of the drink from the future still wins over it.
            let edited = try await b.store.edit(fromTheFuture.id, DrinkEdit(note: "edited"))
            try await b.sync()
            try await a.sync()
            #expect(try await a.store.drinks().contains(edited))
        }
    }
}

/// A clock moved by hand, shared by a test and the store it drives.
final class ManualTestClock: JournalClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current = Timestamp(milliseconds: 1_795_262_400_000)

    func now() -> Timestamp { lock.withLock { current } }
    func advance(_ duration: Duration) { lock.withLock { current = current + duration } }
}

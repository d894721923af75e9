import Foundation
import JournalKit
import Testing
import TestSupport

@testable import JournalSync

@Suite struct SyncEngineTests {
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
            #expect(try a.engine.hub.segments(of: a.store.deviceID).count == (count + 4) / 5)
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
            let added = try await a.store.add(drink("double-espresso", note: "secret-note-text"))
            try await a.sync()
            let secrets = ["double-espresso", "secret-note-text", key.hex, added.id.rawValue, "128"]
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
            #expect(throws: SyncError.wrongKey(hub: folder + "/hub")) {
                _ = try FolderHub.open(folder: folder + "/hub", key: SyncKey())
            }
            #expect(snapshot(folder + "/hub") == before)
        }
    }

    @Test func aHubOfANewerFormatIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let hub = folder + "/hub/journal-hub-v1"
            try FileManager.default.createDirectory(atPath: hub, withIntermediateDirectories: true)
            try Data(#"{"format": 2, "hub_id": "x", "key_check": "y", "something": "new"}"#.utf8).write(to: URL(fileURLWithPath: hub + "/hub.json"))
            #expect(throws: SyncError.hubFormatTooNew(hub: folder + "/hub", format: 2, supported: 1)) {
                _ = try FolderHub.open(folder: folder + "/hub", key: SyncKey())
            }
            try Data("{not json".utf8).write(to: URL(fileURLWithPath: hub + "/hub.json"))
            #expect(throws: SyncError.corruptHub(hub: folder + "/hub", problem: "hub.json is not valid JSON with a format number")) {
                _ = try FolderHub.open(folder: folder + "/hub", key: SyncKey())
            }
        }
    }

    @Test(arguments: SegmentDamage.allCases)
    func aDamagedSegmentIsReportedAndHeldBackWhileOtherDevicesSync(damage: SegmentDamage) async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, segmentSize: 2)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            let c = try await Machine.make(folder, name: "c", hubFolder: folder + "/hub", key: key)
            for minute in 0..<6 { _ = try await a.store.add(drink(minute: Int64(minute))) }
            _ = try await b.store.add(drink("cola"))
            try await a.sync()
            try await b.sync()
            let hub = a.engine.hub as! FolderHub
            let segments = try hub.segments(of: a.store.deviceID)
            #expect(segments.count == 3)
            let victim = segments[1]
            let path = hub.deviceFolder(a.store.deviceID) + "/" + victim.fileName
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            try damage.apply(to: path, original: original, hub: hub, device: a.store.deviceID, otherDevice: b.store.deviceID, key: key)

            let report = try await c.sync()
            #expect(report.failures.count == 1)
            #expect(report.failures.first?.segment == victim.fileName)
            #expect(report.failures.first?.device == a.store.deviceID)
            // The first segment of a and everything of b arrived; the damaged one and the one after did not.
            #expect(report.received == 3)
            #expect(try await c.store.anchors(hubID: hub.id)[a.store.deviceID] == segments[0].last)
            #expect(try await c.store.anchors(hubID: hub.id)[b.store.deviceID] != nil)
            // Retried on every sync, and applied once the segment is whole again.
            #expect(try await c.sync().failures.count == 1)
            try original.write(to: URL(fileURLWithPath: path))
            let healed = try await c.sync()
            #expect(healed.failures.isEmpty)
            #expect(try await c.state() == Set(a.state()).union(try await b.state()))
        }
    }

    @Test func aSegmentStillOnItsWayHoldsItsDeviceBackWithoutLosingIt() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, segmentSize: 2)
            let c = try await Machine.make(folder, name: "c", hubFolder: folder + "/hub", key: key)
            for minute in 0..<6 { _ = try await a.store.add(drink(minute: Int64(minute))) }
            try await a.sync()
            let hub = a.engine.hub as! FolderHub
            let segments = try hub.segments(of: a.store.deviceID)
            let middle = hub.deviceFolder(a.store.deviceID) + "/" + segments[1].fileName
            // Syncthing or Dropbox may bring the later segments first.
            try FileManager.default.moveItem(atPath: middle, toPath: folder + "/in-transit")
            let early = try await c.sync()
            #expect(early.failures.isEmpty)
            #expect(early.received == 2)
            #expect(early.waiting == [SegmentGap(device: a.store.deviceID, first: 3, last: 4)])
            #expect(early.summary.contains("has not arrived yet"))
            try FileManager.default.moveItem(atPath: folder + "/in-transit", toPath: middle)
            let late = try await c.sync()
            #expect(late.received == 4)
            #expect(late.waiting.isEmpty)
            #expect(try await c.state() == a.state())
        }
    }

    @Test func aDevicesSegmentsCoverItsPositionsWithoutGaps() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, segmentSize: 2)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            for round in 0..<4 {
                _ = try await b.store.add(drink("cola", minute: Int64(round)))
                try await b.sync()
                // a's positions now include b's changes, which a does not publish.
                try await a.sync()
                for minute in 0..<3 { _ = try await a.store.add(drink(minute: Int64(round * 10 + minute))) }
                try await a.sync()
            }
            let segments = try a.engine.hub.segments(of: a.store.deviceID)
            #expect(segments.first?.first == 1)
            for (earlier, later) in zip(segments, segments.dropFirst()) {
                #expect(later.first == earlier.last + 1, "\(earlier) then \(later)")
            }
            #expect(try await b.sync().waiting.isEmpty)
            #expect(try await b.state() == a.state())
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
            let copy = Machine(store: copyStore, engine: SyncEngine(store: copyStore, hub: original.engine.hub, key: key))
            let onCopy = try await copy.store.add(drink("cola", note: "made on the copy"))
            let before = snapshot(folder + "/hub")
            await #expect(throws: SyncError.copiedFile(path: folder + "/copy.db")) { try await copy.sync() }
            #expect(snapshot(folder + "/hub") == before)

            _ = try await copy.store.adoptNewDeviceIdentity()
            let renewedStore = try await JournalStore(path: folder + "/copy.db", clock: sameInstant, physicalClock: sameInstant)
            let renewed = Machine(store: renewedStore, engine: SyncEngine(store: renewedStore, hub: original.engine.hub, key: key))
            _ = try await original.store.add(drink("black-tea"))
            try await renewed.sync()
            try await original.sync()
            try await renewed.sync()
            #expect(try await original.store.drinks().count == 3)
            #expect(try await original.store.drinks().contains(onCopy))
            #expect(Set(try await renewed.store.drinks()) == Set(try await original.store.drinks()))
        }
    }

    @Test func aBackupRestoredInPlaceIsRefusedByWhatTheHubHolds() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let path = folder + "/a.db"
            var machine: Machine? = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key)
            _ = try await machine?.store.add(drink())
            try await machine?.sync()
            let backup = try Data(contentsOf: URL(fileURLWithPath: path))
            let backupWAL = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
            _ = try await machine?.store.add(drink("cola"))
            try await machine?.sync()
            let hub = try #require(machine?.engine.hub)
            machine = nil
            // Written over the same file, as `cp backup.db journal.db` does: same inode, older content.
            try backup.write(to: URL(fileURLWithPath: path))
            try backupWAL.write(to: URL(fileURLWithPath: path + "-wal"))
            try? FileManager.default.removeItem(atPath: path + "-shm")
            let restored = try await JournalStore(path: path, clock: sameInstant, physicalClock: sameInstant)
            _ = try await restored.add(drink("black-tea"))
            let engine = SyncEngine(store: restored, hub: hub, key: key)
            await #expect(throws: SyncError.self) { _ = try await engine.sync() }
            do { _ = try await engine.sync() } catch let error as SyncError {
                guard case .copiedDatabase = error else { Issue.record("expected copiedDatabase, got \(error)"); return }
            }
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

/// Ways a segment on the hub can be damaged.
enum SegmentDamage: String, CaseIterable, Sendable {
    case flippedByte, truncated, emptied, replacedWithGarbage, movedFromAnotherPosition, movedFromAnotherDevice, sealedWithAnotherKey,
        fromANewerJournal

    func apply(to path: String, original: Data, hub: FolderHub, device: DeviceID, otherDevice: DeviceID, key: SyncKey) throws {
        var bytes = [UInt8](original)
        switch self {
        case .flippedByte: bytes[bytes.count / 2] ^= 0x40
        case .truncated: bytes = Array(bytes.prefix(bytes.count - 7))
        case .emptied: bytes = []
        case .replacedWithGarbage: bytes = Array("not a segment at all".utf8)
        case .movedFromAnotherPosition:
            // The first segment's bytes, put where the second belongs.
            let first = try hub.segments(of: device)[0]
            bytes = try hub.read(first, of: device)
        case .movedFromAnotherDevice:
            let theirs = try hub.segments(of: otherDevice)[0]
            bytes = try hub.read(theirs, of: otherDevice)
        case .fromANewerJournal:
            // Authentic, but in a segment format this journal does not know yet.
            let name = SegmentName(fileName: String(path.split(separator: "/").last!))!
            bytes = try SegmentSeal.seal(Array("[]".utf8), format: SegmentCodec.format + 1, key: key, device: device, name: name)
        case .sealedWithAnotherKey:
            let name = SegmentName(fileName: String(path.split(separator: "/").last!))!
            bytes = try SegmentSeal.seal(SegmentCodec.encode([]).bytes, format: 1, key: SyncKey(), device: device, name: name)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

/// A clock moved by hand, shared by a test and the store it drives.
final class ManualTestClock: JournalClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current = Timestamp(milliseconds: 1_795_262_400_000)

    func now() -> Timestamp { lock.withLock { current } }
    func advance(_ duration: Duration) { lock.withLock { current = current + duration } }
}

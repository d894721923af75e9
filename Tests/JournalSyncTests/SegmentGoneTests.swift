import Foundation
import HubTestSupport
import JournalKit
import Synchronization
import Testing
import TestSupport

@testable import JournalSync

/// A segment can go between a reader's listing of a log and its reading of the file: its device
/// compacted it into a larger one, or a sync tool is at work. That is the log moving on, not the hub
/// out of reach: the reader lists the log again and reads what replaced it, in the same sync.
@Suite(.onTestThreads) struct SegmentGoneTests {
    @Test func aSegmentCompactedAwayWhileAnotherDeviceReadsItIsReadInItsNewSegment() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, segmentSize: 100)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            _ = try await a.store.add(drink(minute: 1))
            try await a.sync()
            // While B reads A's first segment, A adds a drink and syncs: its two one-drink segments merge.
            let racing = CompactingWhileReadHub(base: b.engine.hub) {
                _ = try await a.store.add(drink(minute: 2))
                let merged = try await a.sync()
                #expect(merged.segmentsMerged >= 1, "A's sync merged nothing: \(merged)")
            }
            let reader = SyncEngine(store: b.store, hub: racing, key: key, deviceKeys: b.engine.deviceKeys)
            let names = try await a.engine.hub.log(of: a.store.deviceID).names.map(\.fileName)
            #expect(names.count == 1, "\(names)")
            let report = try await reader.sync()
            #expect(racing.raced, "B read no segment of A's")
            #expect(try await a.engine.hub.log(of: a.store.deviceID).names.map(\.fileName) != names)
            #expect(report.received == 2 && report.failures.isEmpty && report.skipped.isEmpty, "\(report)")
            #expect(try await b.state() == a.state())
        }
    }

    /// The same race on this device's own log, whose segment changed since it was written (a sync tool
    /// replacing it) and goes as the check reads it, is no damage either: nothing is set aside, the
    /// sync says the file went, and the next one writes the segment again.
    @Test func anOwnSegmentThatGoesAsItIsCheckedIsNotTakenForDamage() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key)
            _ = try await a.store.add(drink(minute: 1))
            try await a.sync()
            let own = try #require(try await a.engine.hub.log(of: a.store.deviceID).names.first)
            let logFolder = folder + "/hub/journal-hub-v1/devices/" + a.store.deviceID.rawValue
            // Another modification time: no longer the fingerprint written, so the check opens it.
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: logFolder + "/" + own.fileName)
            let base = a.engine.hub
            let racing = CompactingWhileReadHub(base: base) { try await base.remove(own, of: a.store.deviceID) }
            let checking = SyncEngine(store: a.store, hub: racing, key: key, deviceKeys: a.engine.deviceKeys)
            do {
                _ = try await checking.sync()
                Issue.record("the sync went through with its own segment gone mid-read")
            } catch {
                #expect(error.hubCondition == .gone, "\(error)")
            }
            #expect(racing.raced)
            #expect(!FileManager.default.fileExists(atPath: folder + "/hub/journal-hub-v1/set-aside"))
            try await a.sync()
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            #expect(try await b.sync().received == 1)
        }
    }
}

/// A hub whose first segment read runs `race` (another device's sync) before it reads.
final class CompactingWhileReadHub: ForwardingHub {
    let base: any Hub
    private let race: @Sendable () async throws -> Void
    private let started = Mutex(false)

    init(base: any Hub, race: @escaping @Sendable () async throws -> Void) {
        self.base = base
        self.race = race
    }

    var raced: Bool { started.withLock { $0 } }

    func read(_ segment: SegmentName, of device: DeviceID) async throws -> [UInt8] {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        if first { try await race() }
        return try await base.read(segment, of: device)
    }
}

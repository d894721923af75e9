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

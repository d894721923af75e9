import Foundation
import JournalKit
import PropertyBased
import Testing
import TestSupport

@testable import JournalSync

@Suite(.onTestThreads) struct CompactionTests {
    @Test func aLogOfManySmallChangesStaysAFewSegments() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, segmentSize: 100)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            // One change per sync, as the daemon publishes them.
            for minute in 0..<300 {
                _ = try await a.store.add(drink(minute: Int64(minute)))
                try await a.sync()
            }
            let segments = try await a.engine.hub.log(of: a.store.deviceID).names
            #expect(segments.count <= 2 + 8, "\(segments.count) segments")
            #expect(segments.first?.first == 1)
            for (earlier, later) in zip(segments, segments.dropFirst()) { #expect(later.first == earlier.last + 1) }
            #expect(try await b.sync().received == 300)
            #expect(try await b.state() == a.state())
        }
    }

    /// A sync with nothing of this device's to publish writes no segment, even when another device's
    /// newer version of one of its records left a pair the rule would now merge: the merge waits for
    /// this device's next change, whose sync makes it (a Syncthing user pays for every file written).
    @Test func aSyncThatPublishesNothingCompactsNothing() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, segmentSize: 100)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            let first = try await a.store.add(drink(minute: 1))
            _ = try await a.store.add(drink(minute: 2))
            try await a.sync()
            _ = try await a.store.add(drink(minute: 3))
            try await a.sync()
            // Two records, then one: the older holds more, so the two stay apart.
            let names = { try await a.engine.hub.log(of: a.store.deviceID).names.map(\.fileName) }
            let apart = try await names()
            #expect(apart.count == 2, "\(apart)")
            // B's newer version of A's first drink: A's older segment now holds one record of A's.
            try await b.sync()
            _ = try await b.store.edit(first.id, DrinkEdit(note: "edited on b"))
            try await b.sync()
            #expect(try await a.sync().received == 1)
            let quiet = try await a.sync()
            #expect(quiet.segmentsMerged == 0 && quiet.segmentsWritten == 0)
            #expect(try await names() == apart)
            // A's next change publishes a segment, and its sync merges what the rule merges.
            _ = try await a.store.add(drink(minute: 4))
            let next = try await a.sync()
            #expect(next.segmentsWritten == 1 && next.segmentsMerged >= 1, "\(next)")
            #expect(try await b.sync().received == 1)
            #expect(try await b.state() == a.state())
        }
    }

    @Test(arguments: [[1, 1], [2, 1], [1, 2], [4, 4, 2, 1, 1], [0, 5], [5, 0], [3, 3], [100, 1]])
    func mergesLikeABinaryCounter(counts: [Int]) {
        let index = SyncEngine.mergeable(counts, limit: 6)
        switch counts {
        case [1, 1], [1, 2], [3, 3]: #expect(index == 0)
        case [2, 1], [100, 1]: #expect(index == nil)
        case [4, 4, 2, 1, 1]: #expect(index == 3)
        case [0, 5], [5, 0]: #expect(index == 0)
        default: Issue.record("no expectation for \(counts)")
        }
    }

    /// Any writes and syncs on three machines whose logs are compacted, with a sync tool delivering
    /// new segments and removals in any order and at any pace: no reader ever fails, none skips a
    /// change (or it would never get it back), and once everything is delivered all agree.
    @Test func compactedLogsReachEveryReaderWhateverTheDeliveryOrder() async throws {
        await checkProperty(count: 30, input: steps) { history in
            try await withTemporaryDirectory { folder in
                let key = SyncKey()
                let hubs = LaggingHubs(key: key)
                var machines: [Machine] = []
                for index in 0..<3 {
                    let store = try await JournalStore(path: "\(folder)/m\(index).db", clock: sameInstant, physicalClock: sameInstant)
                    try await store.joinHub(id: hubs.id, kind: "test", location: "lagging hub")
                    machines.append(Machine(store: store, engine: SyncEngine(store: store, hub: hubs.view(for: store.deviceID), key: key, deviceKeys: DeviceKeys(), segmentSize: 2)))
                }
                var generator = SeededGenerator(seed: UInt64(history.count))
                for step in history {
                    let machine = machines[step.replica]
                    switch step.action {
                    case 7...8:
                        hubs.deliver(step.pick % 4, to: machine.store.deviceID, using: &generator)
                    case 9:
                        let report = try await machine.sync()
                        #expect(report.failures.isEmpty, "history \(history): \(report.failures)")
                    default:
                        try await ConvergenceTests.write(step, on: machine.store)
                    }
                }
                for _ in 0..<2 {
                    for machine in machines { try await machine.sync() }
                    hubs.deliverAll()
                }
                for machine in machines { try await machine.sync() }
                let first = try await machines[0].state()
                for machine in machines.dropFirst() {
                    #expect(try await machine.state() == first, "history \(history)")
                    #expect(try await machine.kinds() == machines[0].kinds(), "history \(history)")
                }
            }
        }
    }
}

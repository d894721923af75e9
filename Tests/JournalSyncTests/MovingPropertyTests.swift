import Foundation
import JournalKit
import PropertyBased
import Testing
import TestSupport

@testable import FolderHub
@testable import JournalSync

/// Machines that move from one hub to another, one by one at any moment, writing and syncing on
/// whichever hub they are on meanwhile, with clocks that tie: once all have moved and synced, each
/// holds the whole journal, every write any of them made (as a journal that was handed every write
/// directly holds it), nothing lost, nothing doubled.
@Suite(.onTestThreads) struct MovingPropertyTests {
    /// A write (0-6, 10-12: `ConvergenceTests.write`), a whole sync (7-9), or a move to the new hub (13).
    static let moves = zip(Gen.int(in: 0...13), Gen.int(in: 0...2), Gen.int(in: 0...40), Gen.int(in: 0...2))
        .map { Step(action: $0, replica: $1, pick: $2, other: $3) }
        .array(of: 1...40)

    @Test func machinesMovingBetweenHubsAtAnyMomentLoseAndDoubleNothing() async throws {
        await checkProperty(count: 20, input: Self.moves) { moves in try await Self.play(moves) }
    }

    static func play(_ moves: [Step]) async throws {
        try await withTemporaryDirectory { folder in
            let oldKey = SyncKey()
            var machines: [Machine] = []
            for index in 0..<3 { machines.append(try await Machine.make(folder, name: "m\(index)", hubFolder: folder + "/old", key: oldKey, segmentSize: 3)) }
            // What every write comes to: each is handed to it directly as it is made.
            let whole = try await JournalStore(path: folder + "/whole.db", clock: sameInstant, physicalClock: sameInstant)
            var moved: [Bool] = [false, false, false]
            var newKey: SyncKey?
            func move(_ index: Int) async throws {
                guard !moved[index] else { return }
                let key = newKey ?? SyncKey()
                newKey = key
                machines[index] = try await machines[index].moving(to: FolderPlace(folder: folder + "/new"), key: key)
                moved[index] = true
            }
            for step in moves {
                let machine = machines[step.replica]
                switch step.action {
                case 7...9: _ = try await machine.sync()
                case 13: try await move(step.replica)
                default:
                    try await ConvergenceTests.write(step, on: machine.store)
                    try await ConvergenceTests.deliver(from: machine.store, to: whole, shuffle: step.pick)
                }
            }
            for index in 0..<3 { try await move(index) }
            for _ in 0..<2 { for machine in machines { _ = try await machine.sync() } }
            let expected = Set(try await whole.changes(since: nil, limit: 10_000).records.map(RecordState.init))
            for machine in machines {
                let held = Set(try await machine.store.changes(since: nil, limit: 10_000).records.map(RecordState.init))
                #expect(held == expected, "\(machine.store.deviceID) after \(moves)")
            }
            for machine in machines { await machine.engine.close() }
        }
    }
}

extension Machine {
    /// The same journal joined to the hub at `place` (made there with `key` when there is none), with a
    /// new engine: what `journal sync init --hub NEW` does to a machine.
    func moving(to place: any HubPlace, key: SyncKey) async throws -> Machine {
        await engine.close()
        let hub = try await place.hubExists() ? try await place.open(key: key, expecting: nil) : try await place.make(key: key, shared: false)
        try await store.joinHub(id: hub.id, kind: place.kind.rawValue, location: place.location)
        return Machine(store: store, engine: SyncEngine(store: store, hub: hub, key: key, deviceKeys: engine.deviceKeys, segmentSize: 3))
    }
}

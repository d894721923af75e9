import Foundation
import JournalKit
import PropertyBased
import Testing
import TestSupport

@testable import JournalSync

/// One step of a random history: a write on a replica, or a delivery between two.
struct Step: Sendable, CustomStringConvertible {
    let action: Int
    let replica: Int
    let pick: Int
    let other: Int

    var description: String { "(\(action),\(replica),\(pick),\(other))" }
}

let steps = zip(Gen.int(in: 0...12), Gen.int(in: 0...2), Gen.int(in: 0...40), Gen.int(in: 0...2))
    .map { Step(action: $0, replica: $1, pick: $2, other: $3) }
    .array(of: 1...40)

@Suite(.onTestThreads) struct ConvergenceTests {
    /// Any adds, edits and deletes on three replicas (drinks, drinks of one's own, nights), delivered in
    /// any order, any number of times, with clocks that tie: afterwards every replica holds the same
    /// journal.
    @Test func anyDeliveryOrderConverges() async throws {
        await checkProperty(count: 60, input: steps) { history in
            try await withTemporaryDirectory { folder in
                var replicas: [JournalStore] = []
                for index in 0..<3 { replicas.append(try await JournalStore(path: "\(folder)/\(index).db", clock: sameInstant, physicalClock: sameInstant)) }
                for step in history {
                    if (7...9).contains(step.action) {
                        try await Self.deliver(from: replicas[step.other], to: replicas[step.replica], shuffle: step.pick)
                    } else {
                        try await Self.write(step, on: replicas[step.replica])
                    }
                }
                for round in 0..<2 {
                    for (from, to) in [(0, 1), (2, 0), (1, 2), (1, 0), (0, 2), (2, 1)] {
                        try await Self.deliver(from: replicas[from], to: replicas[to], shuffle: round * 7 + from)
                    }
                }
                var states: [Set<RecordState>] = []
                var kinds: [[[SQLiteValue]]] = []
                for replica in replicas {
                    states.append(Set(try await replica.changes(since: nil, limit: 10_000).records.map(RecordState.init)))
                    kinds.append(try await otherKindsState(replica))
                }
                #expect(states[0] == states[1], "history \(history)")
                #expect(states[1] == states[2], "history \(history)")
                #expect(kinds[0] == kinds[1] && kinds[1] == kinds[2], "history \(history)")
            }
        }
    }

    /// Applies a write chosen by `step` to a replica: an add, an edit or a delete of one of the drinks
    /// it knows (its own or received). The same steps drive `HubContractTests.anySyncOrderConverges`.
    static func write(_ step: Step, on store: JournalStore) async throws {
        let live = try await store.drinks()
        switch step.action {
        case 0...2:
            _ = try await store.add(drink(minute: Int64(step.pick % 5), note: step.pick % 2 == 0 ? nil : "n\(step.pick)"))
        case 3...5 where !live.isEmpty:
            let target = live[step.pick % live.count]
            _ = try await store.edit(target.id, DrinkEdit(caffeineMg: Double(step.pick), note: "edit \(step.other)"))
        case 6 where !live.isEmpty:
            _ = try await store.remove([live[step.pick % live.count].id])
        case 10:
            // Custom drinks from a small set of names, so machines define, change and remove the same ones.
            _ = try await store.defineDrink(named: "mine-\(step.pick % 3)", caffeineMg: Double(step.pick + step.other))
        case 11:
            _ = try? await store.removeDrinkKind(named: "mine-\(step.pick % 3)")
        case 12:
            // Nights of the same few dates, imported on several machines with other figures.
            _ = try await store.importNights([night(step.pick, step.other)])
        default:
            _ = try await store.add(drink("cola"))
        }
    }

    /// Hands `from`'s own records to `to` as a hub would, but out of order and each batch twice.
    static func deliver(from: JournalStore, to: JournalStore, shuffle: Int) async throws {
        guard from.deviceID != to.deviceID else { return }
        let own = try await from.ownChanges(after: 0, limit: 10_000)
        guard !own.isEmpty else { return }
        var generator = SeededGenerator(seed: UInt64(shuffle + 1))
        let shuffled = own.records.shuffled(using: &generator)
        let cut = Int(generator.next() % UInt64(shuffled.count + 1))
        for batch in [Array(shuffled[..<cut]), Array(shuffled[cut...]), Array(shuffled.reversed())] where !batch.isEmpty {
            _ = try await to.applyReceived(batch, from: from.deviceID, through: 0, hubID: "direct")
        }
    }
}

import Foundation
import Testing
import TestSupport

@testable import JournalKit

/// A clock the test moves by hand.
final class ManualClock: JournalClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Timestamp

    init(_ start: Timestamp = Timestamp(milliseconds: 1_795_262_400_000)) { current = start }

    func now() -> Timestamp { lock.withLock { current } }

    func advance(_ duration: Duration) { lock.withLock { current = current + duration } }
}

func espresso(at instant: Timestamp, note: String? = nil) -> NewDrink {
    NewDrink(kind: "espresso", caffeineMg: 64, consumedAt: instant, note: note)
}

@Suite(.onTestThreads) struct StoreWriteTests {
    @Test func addEditRemoveAndUndoRoundTrip() async throws {
        try await withTemporaryDirectory { folder in
            let clock = ManualClock()
            let store = try await JournalStore(path: folder + "/j.db", clock: clock)
            let added = try await store.add(espresso(at: clock.now(), note: "first"))
            #expect(try await store.drinks() == [added])

            clock.advance(.seconds(60))
            let edited = try await store.edit(added.id, DrinkEdit(kind: "double-espresso", caffeineMg: 128, note: ""))
            #expect(edited.kind == "double-espresso")
            #expect(edited.caffeineMg == 128)
            #expect(edited.note == nil)
            #expect(edited.consumedAt == added.consumedAt)

            let removed = try await store.remove([added.id])
            #expect(removed == [edited])
            #expect(try await store.drinks().isEmpty)

            let undoRemove = try await store.undo()
            #expect(undoRemove.action == "rm")
            #expect(try await store.drinks() == [edited])

            let undoEdit = try await store.undo()
            #expect(undoEdit.action == "edit")
            #expect(try await store.drinks() == [added])

            let undoAdd = try await store.undo()
            #expect(undoAdd.action == "add")
            #expect(try await store.drinks().isEmpty)

            await #expect(throws: UndoError.nothingToUndo) { _ = try await store.undo() }
        }
    }

    @Test func everyWriteTicksTheClockAndTheSequence() async throws {
        try await withTemporaryDirectory { folder in
            let clock = ManualClock()
            let store = try await JournalStore(path: folder + "/j.db", clock: clock, physicalClock: clock)
            let drink = try await store.add(espresso(at: clock.now()))
            // Writes within the same millisecond still get increasing clock readings.
            _ = try await store.edit(drink.id, DrinkEdit(note: "a"))
            _ = try await store.edit(drink.id, DrinkEdit(note: "b"))
            _ = try await store.remove([drink.id])
            let records = try await store.changes(since: nil, limit: 10).records
            #expect(records.count == 1)
            let tombstone = try #require(records.first)
            #expect(tombstone.isDeleted)
            #expect(tombstone.sequence == 4)
            #expect(tombstone.clock == HybridTimestamp(milliseconds: clock.now().milliseconds, counter: 3))
            #expect(tombstone.origin == store.deviceID)
        }
    }

    /// A machine whose clock read three years ahead once: its next write after the clock is right
    /// is stamped by the clock, said as a reading left behind; an edit of a drink it stamped ahead
    /// still orders after that drink's reading, so its own edits keep their order.
    @Test func aClockWrongOnceIsLeftBehindAndOwnEditsKeepTheirOrder() async throws {
        try await withTemporaryDirectory { folder in
            let clock = ManualClock()
            let ahead = ManualClock()
            ahead.advance(.seconds(3 * 365 * 86_400))
            let wrong = try await JournalStore(path: folder + "/j.db", clock: clock, physicalClock: ahead)
            let early = try await wrong.add(espresso(at: clock.now()))
            let right = try await JournalStore(path: folder + "/j.db", clock: clock, physicalClock: clock)
            #expect(try await right.clockLeftBehind() == nil)
            let later = try await right.add(espresso(at: clock.now()))
            let records = try await right.changes(since: nil, limit: 10).records
            let stamped = Dictionary(uniqueKeysWithValues: records.map { ($0.payload.id, $0.clock) })
            #expect(stamped[later.id] == HybridTimestamp(milliseconds: clock.now().milliseconds))
            let leftBehind = try #require(try await right.clockLeftBehind())
            #expect(leftBehind.reading == stamped[early.id] && leftBehind.at == clock.now())
            #expect(leftBehind.sentence.contains("(3 years ahead of real time)"), "\(leftBehind.sentence)")
            _ = try await right.edit(early.id, DrinkEdit(note: "after"))
            let edited = try #require(try await right.changes(since: nil, limit: 10).records.first { $0.payload.id == early.id })
            #expect(edited.clock == stamped[early.id]?.successor)
        }
    }

    @Test func anEditThatChangesNothingWritesNothing() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            let drink = try await store.add(espresso(at: Timestamp(milliseconds: 0), note: "same"))
            let before = try await store.changes(since: nil, limit: 10)
            #expect(try await store.edit(drink.id, DrinkEdit(kind: "espresso", note: "same")) == drink)
            #expect(try await store.changes(since: before.newAnchor, limit: 10).records.isEmpty)
        }
    }

    @Test func removingSeveralIsAllOrNothing() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            let a = try await store.add(espresso(at: Timestamp(milliseconds: 0)))
            let b = try await store.add(espresso(at: Timestamp(milliseconds: 1)))
            let missing = DrinkID(rawValue: "00000000-0000-4000-8000-000000000000")
            await #expect(throws: DrinkLookupError.notFound(missing.rawValue)) {
                _ = try await store.remove([a.id, missing])
            }
            #expect(try await store.drinks() == [a, b])
            #expect(try await store.remove([a.id, b.id]).count == 2)
            // One undo brings back both: they were one command.
            _ = try await store.undo()
            #expect(try await store.drinks() == [a, b])
        }
    }

    /// Undo goes back at least 100 commands; the log is trimmed in batches, so it never holds 150.
    @Test func undoRemembersAtLeastAHundredCommandsAndNoMoreThanItMust() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db")
            var most = 0
            for minute in 0..<260 {
                _ = try await store.add(NewDrink(kind: "espresso", caffeineMg: 64, consumedAt: Timestamp(milliseconds: 1_795_200_000_000 + Int64(minute) * 60_000), note: nil))
                let groups = try queryRows("SELECT count(DISTINCT change_id) FROM undo_log", on: store.path)
                guard case .integer(let count) = groups.first?.first else { Issue.record("no count"); return }
                #expect(count >= min(Int64(minute + 1), WriteContext.undoDepth), "after \(minute + 1) adds")
                most = max(most, Int(count))
            }
            // Trimmed in batches: between two trims the log holds more than it must keep.
            #expect(most > Int(WriteContext.undoDepth) && most < Int(WriteContext.undoDepth + WriteContext.undoTrimEvery))
            for _ in 0..<WriteContext.undoDepth { _ = try await store.undo() }
            #expect(try await store.drinks().count == 160)
        }
    }

    @Test func undoRefusesWhenTheDrinkChangedSince() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/j.db"
            let here = try await JournalStore(path: path, clock: ManualClock())
            let drink = try await here.add(espresso(at: Timestamp(milliseconds: 0)))
            // A change not recorded in the undo log, as one applied by sync would be.
            try await here.applyUntrackedEditForTesting(drink.id, note: "from elsewhere")
            await #expect(throws: UndoError.changedSince(.drink(drink.id), redoing: false)) { _ = try await here.undo() }
            #expect(try await here.drinks().first?.note == "from elsewhere")
        }
    }

    @Test func invalidDosesAreRefusedAndNothingIsWritten() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            for mg in [-1, .nan, .infinity, 1000.5] {
                await #expect(throws: InvalidRecordError.self) {
                    _ = try await store.add(NewDrink(kind: "espresso", caffeineMg: mg, consumedAt: Timestamp(milliseconds: 0)))
                }
            }
            #expect(try await store.changes(since: nil, limit: 10).records.isEmpty)
        }
    }

    @Test func findsDrinksByUniqueIDPrefix() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            var drinks: [Drink] = []
            for minute in 0..<40 {
                drinks.append(try await store.add(espresso(at: Timestamp(milliseconds: Int64(minute) * 60_000))))
            }
            let target = drinks[7]
            #expect(try await store.drink(idPrefix: target.id.rawValue) == target)
            #expect(try await store.drink(idPrefix: target.id.rawValue.uppercased()) == target)
            // With 40 random ids, some single hex digit starts several of them.
            let counts = Dictionary(grouping: drinks, by: { $0.id.rawValue.prefix(1) })
            let (digit, sharing) = try #require(counts.first { $0.value.count > 1 })
            await #expect(throws: DrinkLookupError.ambiguous(String(digit), candidates: sharing.sorted { $0.consumedAt < $1.consumedAt })) {
                _ = try await store.drink(idPrefix: String(digit))
            }
            await #expect(throws: DrinkLookupError.notFound("zz*")) { _ = try await store.drink(idPrefix: "zz*") }
            _ = try await store.remove([target.id])
            await #expect(throws: DrinkLookupError.notFound(target.id.rawValue)) {
                _ = try await store.drink(idPrefix: target.id.rawValue)
            }
        }
    }

    @Test func listsTheLatestDrinksOldestFirstWithinARange() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            var drinks: [Drink] = []
            for hour in 0..<10 {
                drinks.append(try await store.add(espresso(at: Timestamp(milliseconds: Int64(hour) * 3_600_000))))
            }
            #expect(try await store.drinks(limit: 3) == Array(drinks[7...]))
            #expect(try await store.drinks(from: Timestamp(milliseconds: 2 * 3_600_000), until: Timestamp(milliseconds: 5 * 3_600_000)) == Array(drinks[2..<5]))
            #expect(try await store.drinks() == drinks)
        }
    }

    @Test func importIsIdempotentAllOrNothingAndUndoable() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            let existing = try await store.add(espresso(at: Timestamp(milliseconds: 0)))
            let fresh = Drink(
                id: DrinkID(rawValue: "11111111-1111-4111-8111-111111111111"), kind: "black-tea", caffeineMg: 47,
                consumedAt: Timestamp(milliseconds: 1000), note: "imported")
            var changed = existing
            changed.note = "a different version"
            #expect(try await store.importDrinks([changed, fresh]) == ImportSummary(added: 1, alreadyPresent: 1))
            #expect(try await store.drinks() == [existing, fresh])
            #expect(try await store.importDrinks([changed, fresh]) == ImportSummary(added: 0, alreadyPresent: 2))
            var bad = fresh
            bad.id = DrinkID(rawValue: "22222222-2222-4222-8222-222222222222")
            bad.caffeineMg = -3
            var good = fresh
            good.id = DrinkID(rawValue: "33333333-3333-4333-8333-333333333333")
            await #expect(throws: InvalidRecordError.self) { _ = try await store.importDrinks([good, bad]) }
            #expect(try await store.drinks() == [existing, fresh])
        }
    }
}

extension JournalStore {
    /// Changes a drink's note the way a write from another device would: a new clock reading and
    /// sequence number, no undo entry.
    func applyUntrackedEditForTesting(_ id: DrinkID, note: String) throws {
        try write(nil) { context in
            guard var record = try Drink.table.find(id.rawValue, in: connection) else { return }
            record.payload.note = note
            record.clock = record.clock.successor
            record.origin = DeviceID(rawValue: "another-device")
            try context.store(record)
        }
    }
}

/// A record under this journal's own id that another device's log brought (a relay) is kept, and
/// never published as this device's own change.
@Suite(.onTestThreads) struct ReceivedOwnTests {
    @Test func aRelayedRecordUnderThisDevicesIdIsNotPublishedByIt() async throws {
        try await withTemporaryDirectory { folder in
            let clock = ManualClock()
            let store = try await JournalStore(path: folder + "/j.db", clock: clock, physicalClock: clock)
            let other = try await JournalStore(path: folder + "/o.db", clock: clock, physicalClock: clock)
            _ = try await store.add(espresso(at: clock.now()))
            let mine = try await store.ownChanges(after: 0, limit: 10)
            #expect(mine.records.count == 1)
            // Another device made a record under this device's id and relayed it.
            clock.advance(.seconds(1))
            let forged = try await other.add(espresso(at: clock.now(), note: "not mine"))
            let relayed = try await other.ownChanges(after: 0, limit: 10).records.map { $0.restamped(origin: store.deviceID) }
            let outcome = try await store.applyReceived(relayed, from: other.deviceID, through: 1, hubID: "hub")
            #expect(outcome.applied == 1)
            #expect(try await store.drinks().contains { $0.id == forged.id })
            #expect(try await store.ownChanges(after: mine.through, limit: 10).records.isEmpty)
            #expect(try await store.unpublishedCount(hubID: "hub") == 1)
        }
    }
}

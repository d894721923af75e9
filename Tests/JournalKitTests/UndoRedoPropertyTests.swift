import Foundation
import PropertyBased
import Testing
import TestSupport

@testable import JournalKit

/// Undo and redo walk the journal's history of changes made here, whatever they touched: after any
/// mix of adds, edits, removals, definitions of one's own drinks, imports (restoring or not), undos
/// and redos, the journal is the state a plain list of states says it should be, and undo and redo
/// refuse exactly at its ends.
@Suite(.onTestThreads) struct UndoRedoPropertyTests {
    /// What the journal holds that undo can change: its live drinks, and its own drinks' caffeine.
    struct JournalState: Equatable {
        var drinks: [DrinkID: Drink] = [:]
        var ownDrinks: [String: Double] = [:]
    }

    /// Changes (0...7), undos (8...11) and redos (12...15): runs of undos and redos over changes of the
    /// same few records.
    static let steps = zip(Gen.int(in: 0...15), Gen.int(in: 0...40)).array(of: 1...50)

    @Test func undoAndRedoWalkTheHistoryOfEveryChange() async throws {
        await checkProperty(count: 150, input: Self.steps) { steps in
            try await withTemporaryDirectory { folder in
                let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
                var history = [JournalState()]
                var position = 0
                var removedIDs: [DrinkID] = []
                for (index, (action, pick)) in steps.enumerated() {
                    let context = "steps \(steps), at \(index)"
                    let before = try await Self.state(of: store)
                    switch action {
                    case 8...11:
                        if position == 0 {
                            await #expect(throws: UndoError.nothingToUndo, "\(context)") { _ = try await store.undo() }
                        } else {
                            _ = try await store.undo()
                            position -= 1
                        }
                    case 12...15:
                        if position == history.count - 1 {
                            await #expect(throws: UndoError.nothingToRedo, "\(context)") { _ = try await store.redo() }
                        } else {
                            _ = try await store.redo()
                            position += 1
                        }
                    default:
                        try await Self.change(action, pick: pick, index: index, on: store, removed: &removedIDs)
                        // A command that changed nothing leaves no change to undo.
                        let after = try await Self.state(of: store)
                        if after != before {
                            history = Array(history[...position]) + [after]
                            position += 1
                        }
                    }
                    #expect(try await Self.state(of: store) == history[position], "\(context)")
                }
            }
        }
    }

    /// A change chosen by `action`; each one that writes changes what `state` sees.
    static func change(_ action: Int, pick: Int, index: Int, on store: JournalStore, removed: inout [DrinkID]) async throws {
        let live = try await store.drinks()
        let minute = Timestamp(milliseconds: 1_795_200_000_000 + Int64(pick) * 60_000)
        switch action {
        case 0, 1:
            _ = try await store.add(NewDrink(kind: pick % 2 == 0 ? "espresso" : "mine-\(pick % 3)", caffeineMg: Double(pick), consumedAt: minute))
        case 2 where !live.isEmpty:
            _ = try await store.edit(live[pick % live.count].id, DrinkEdit(caffeineMg: Double(pick), note: "edit \(index)"))
        case 3 where !live.isEmpty:
            let target = live[pick % live.count].id
            _ = try await store.remove([target])
            removed.append(target)
        case 4, 5:
            _ = try await store.defineDrink(named: "mine-\(pick % 3)", caffeineMg: Double(pick % 5))
        case 6:
            _ = try? await store.removeDrinkKind(named: "mine-\(pick % 3)")
        default:
            // An import of a new drink, one live and one removed (brought back or not), defining one.
            var drinks = [Drink(id: DrinkID(rawValue: UUIDText.random()), kind: "mine-\(pick % 3)", caffeineMg: 1, consumedAt: minute)]
            if let one = live.first { drinks.append(one) }
            if let gone = removed.last { drinks.append(Drink(id: gone, kind: "cola", caffeineMg: 22, consumedAt: minute)) }
            _ = try await store.importDrinks(
                drinks, defining: [CustomDrink(name: "mine-\(pick % 3)", caffeineMg: 7)], restoringDeleted: pick % 2 == 0)
        }
    }

    static func state(of store: JournalStore) async throws -> JournalState {
        var state = JournalState()
        for drink in try await store.drinks() { state.drinks[drink.id] = drink }
        for kind in try await store.customDrinkKinds() { state.ownDrinks[kind.name] = kind.caffeineMg }
        return state
    }
}

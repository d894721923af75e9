/// A change `journal undo` reverted.
public struct UndoneChange: Sendable, Equatable {
    /// The command that made the change: add, rm, edit or import.
    public let action: String
    /// Each drink the change touched, as it is after the undo, and whether it is now deleted.
    public let drinks: [(drink: Drink, isDeleted: Bool)]

    public static func == (lhs: UndoneChange, rhs: UndoneChange) -> Bool {
        lhs.action == rhs.action && lhs.drinks.elementsEqual(rhs.drinks) { $0.drink == $1.drink && $0.isDeleted == $1.isDeleted }
    }
}

extension JournalStore {
    /// Reverts the last change made on this machine that is not undone yet. The revert is itself a
    /// change that syncs. Refused when a drink it touched has changed since, to not lose that change.
    public func undo() throws -> UndoneChange {
        try write(nil) { context in
            guard let group = try connection.queryInteger("SELECT max(change_id) FROM undo_log") else {
                throw UndoError.nothingToUndo
            }
            let entries = try connection.query(
                """
                SELECT action, drink_id, before_kind, before_caffeine_mg, before_consumed_at, before_note,
                       before_deleted, after_hlc
                FROM undo_log WHERE change_id = ? ORDER BY drink_id
                """, [.integer(group)]
            ) { row in
                (action: row.text(0), id: DrinkID(rawValue: row.text(1)),
                 before: row.isNull(2) ? nil : (
                    drink: Drink(id: DrinkID(rawValue: row.text(1)), kind: row.text(2), caffeineMg: row.double(3),
                                 consumedAt: Timestamp(milliseconds: row.int64(4)), note: row.optionalText(5)),
                    deleted: row.int64(6) != 0),
                 afterClock: HybridTimestamp(rawValue: row.int64(7)))
            }
            var restored: [(drink: Drink, isDeleted: Bool)] = []
            for entry in entries {
                guard let current = try Drink.table.find(entry.id.rawValue, in: connection), current.clock == entry.afterClock else {
                    throw UndoError.changedSince(entry.id)
                }
                // A drink the change created goes back to not existing: a tombstone, so that syncs too.
                let drink = entry.before?.drink ?? current.payload
                let deleted = entry.before?.deleted ?? true
                let written = try context.writeDrink(drink, deleted: deleted, replacing: current)
                // The change before this one left the drink in the state just restored; let it be undone next.
                try connection.run(
                    """
                    UPDATE undo_log SET after_hlc = ?
                    WHERE drink_id = ? AND change_id = (
                        SELECT max(change_id) FROM undo_log WHERE drink_id = ? AND change_id < ?)
                    """,
                    .integer(written.clock.rawValue), .text(entry.id.rawValue), .text(entry.id.rawValue),
                    .integer(group))
                restored.append((drink, deleted))
            }
            try connection.run("DELETE FROM undo_log WHERE change_id = ?", .integer(group))
            return UndoneChange(action: entries.first?.action ?? "change", drinks: restored)
        }
    }
}

/// A change `journal undo` took back, or `journal redo` put back.
public struct UndoneChange: Sendable, Equatable {
    /// One record the change touched: as it is now, and whether it is deleted now and was before.
    public struct Record<Payload: Sendable & Equatable>: Sendable, Equatable {
        public let payload: Payload
        public let isDeleted: Bool
        public let wasDeleted: Bool
    }

    /// The command that made the change: add, rm, edit, import, drinks add, drinks rm.
    public let action: String
    public let drinks: [Record<Drink>]
    /// Drinks of one's own the change defined, changed or removed.
    public let definitions: [Record<CustomDrink>]
}

extension JournalStore {
    /// Takes back the last change made on this machine that is not undone yet, whatever records it
    /// touched (drinks, drinks of one's own). The revert is itself a change that syncs. Refused when a
    /// record it touched has changed since, to not lose that change.
    public func undo() throws -> UndoneChange {
        try write(nil) { context in
            guard let group = try connection.queryInteger(
                "SELECT change_id FROM undo_log WHERE undone = 0 ORDER BY change_id DESC LIMIT 1")
            else { throw UndoError.nothingToUndo }
            // What was undone before a later change can no longer be redone.
            try connection.run("DELETE FROM undo_log WHERE undone = 1 AND change_id < ?", .integer(group))
            return try flip(group, undoing: true, context: &context)
        }
    }

    /// Puts back the change the last undo took back, while no other change was made here since.
    public func redo() throws -> UndoneChange {
        try write(nil) { context in
            let done = try connection.queryInteger("SELECT change_id FROM undo_log WHERE undone = 0 ORDER BY change_id DESC LIMIT 1") ?? 0
            guard let group = try connection.queryInteger(
                "SELECT change_id FROM undo_log WHERE undone = 1 AND change_id > ? ORDER BY change_id LIMIT 1", .integer(done))
            else { throw UndoError.nothingToRedo }
            return try flip(group, undoing: false, context: &context)
        }
    }

    /// Puts each record of change `group` in the state its entry holds, keeping in the entry the state
    /// it replaced (the way back) and the clock just written.
    private func flip(_ group: Int64, undoing: Bool, context: inout WriteContext) throws -> UndoneChange {
        let entries = try UndoLog.entries(of: group, in: connection)
        var drinks: [UndoneChange.Record<Drink>] = []
        var definitions: [UndoneChange.Record<CustomDrink>] = []
        for entry in entries {
            switch entry.recordKind {
            case Drink.kind.segmentKey: drinks.append(try flip(entry, of: group, undoing: undoing, as: Drink.self, context: &context))
            case CustomDrink.kind.segmentKey:
                definitions.append(try flip(entry, of: group, undoing: undoing, as: CustomDrink.self, context: &context))
            default: throw UndoError.unknownRecordKind(entry.recordKind)
            }
        }
        return UndoneChange(action: entries.first?.action ?? "change", drinks: drinks, definitions: definitions)
    }

    private func flip<Payload: UndoablePayload>(
        _ entry: UndoLog.Entry, of group: Int64, undoing: Bool, as type: Payload.Type, context: inout WriteContext
    ) throws -> UndoneChange.Record<Payload> {
        guard let current = try Payload.table.find(entry.key, in: connection), current.clock == entry.afterClock else {
            throw UndoError.changedSince(Payload.changedSince(key: entry.key), redoing: !undoing)
        }
        // A record the change created goes back to not existing: a tombstone, so that syncs too.
        let payload = entry.before.map { Payload(key: entry.key, undoColumns: $0.columns) } ?? current.payload
        let deleted = entry.before?.deleted ?? true
        let written = try context.writeLocal(payload, deleted: deleted, replacing: current)
        try UndoLog.insert(
            group: group, action: entry.action, key: entry.key, before: current, afterClock: written.clock, undone: undoing,
            replacing: true, in: connection)
        // The neighbouring change of this record on the way (the one before, for undo; the next one
        // undone, for redo) now starts from the state just written.
        try connection.run(
            undoing
                ? """
                UPDATE undo_log SET after_hlc = ? WHERE record_kind = ? AND record_key = ? AND change_id = (
                    SELECT max(change_id) FROM undo_log WHERE record_kind = ? AND record_key = ? AND change_id < ? AND undone = 0)
                """
                : """
                UPDATE undo_log SET after_hlc = ? WHERE record_kind = ? AND record_key = ? AND change_id = (
                    SELECT min(change_id) FROM undo_log WHERE record_kind = ? AND record_key = ? AND change_id > ? AND undone = 1)
                """,
            .integer(written.clock.rawValue), .text(Payload.kind.segmentKey), .text(entry.key), .text(Payload.kind.segmentKey),
            .text(entry.key), .integer(group))
        return UndoneChange.Record(payload: payload, isDeleted: deleted, wasDeleted: current.isDeleted)
    }
}

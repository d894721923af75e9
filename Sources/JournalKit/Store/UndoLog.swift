/// A kind of record `journal undo` can take back: what of it the undo log's `before_` columns keep
/// (before_kind, before_caffeine_mg, before_consumed_at, before_note), and how it is read back.
protocol UndoablePayload: StoredPayload {
    var undoColumns: [SQLiteValue] { get }
    init(key: String, undoColumns: UndoLog.Columns)
    /// The record in the words of an undo that cannot go on because it changed since.
    static func changedSince(key: String) -> ChangedRecord
}

/// The undo log: for each change a command made here, the state of each record it touched before it
/// (migration 16). A change undo took back stays as `undone`, holding what redo puts back.
enum UndoLog {
    /// The `before_` columns as read back.
    struct Columns {
        let kind: String?
        let caffeineMg: Double
        let consumedAt: Int64
        let note: String?
    }

    /// One entry: a record of one change.
    struct Entry {
        let action: String
        let recordKind: String
        let key: String
        /// The state to put back; nil when the change created the record (it goes back to not being).
        let before: (columns: Columns, deleted: Bool)?
        /// The clock of the record's write the entry speaks of: undo and redo refuse if it moved.
        let afterClock: HybridTimestamp
    }

    /// Writes a new entry, or, `replacing`, one over the entry of the same change and record (for undo
    /// and redo; a plain INSERT costs each command that writes a drink less).
    static func insert<Payload: UndoablePayload>(
        group: Int64, action: String, key: String, before: Replicated<Payload>?, afterClock: HybridTimestamp, undone: Bool,
        replacing: Bool = false, in connection: SQLiteConnection
    ) throws {
        let columns = before?.payload.undoColumns ?? [.null, .null, .null, .null]
        try connection.run(
            replacing ? "INSERT OR REPLACE" + insertTail : "INSERT" + insertTail,
            [.integer(group), .text(action), .text(Payload.kind.segmentKey), .text(key)] + columns + [
                before.map { .integer($0.isDeleted ? 1 : 0) } ?? .null, .integer(afterClock.rawValue), .integer(undone ? 1 : 0),
            ])
    }

    private static let insertTail = """
         INTO undo_log (change_id, action, record_kind, record_key, before_kind, before_caffeine_mg,
            before_consumed_at, before_note, before_deleted, after_hlc, undone)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The entries of change `group`, definitions first (a drink may be of one).
    static func entries(of group: Int64, in connection: SQLiteConnection) throws -> [Entry] {
        try connection.query(
            """
            SELECT action, record_kind, record_key, before_kind, before_caffeine_mg, before_consumed_at, before_note,
                   before_deleted, after_hlc
            FROM undo_log WHERE change_id = ? ORDER BY record_kind DESC, record_key
            """, [.integer(group)]
        ) { row in
            Entry(
                action: row.text(0), recordKind: row.text(1), key: row.text(2),
                before: row.isNull(7) ? nil : (
                    Columns(kind: row.optionalText(3), caffeineMg: row.double(4), consumedAt: row.int64(5), note: row.optionalText(6)),
                    row.int64(7) != 0),
                afterClock: HybridTimestamp(rawValue: row.int64(8)))
        }
    }
}

extension Drink: UndoablePayload {
    var undoColumns: [SQLiteValue] { [.text(kind), .real(caffeineMg), .integer(consumedAt.milliseconds), .text(orNull: note)] }

    init(key: String, undoColumns columns: UndoLog.Columns) {
        self.init(
            id: DrinkID(rawValue: key), kind: columns.kind ?? "", caffeineMg: columns.caffeineMg,
            consumedAt: Timestamp(milliseconds: columns.consumedAt), note: columns.note)
    }

    static func changedSince(key: String) -> ChangedRecord { .drink(DrinkID(rawValue: key)) }
}

/// A drink of one's own keeps its form where a drink keeps its note.
extension CustomDrink: UndoablePayload {
    var undoColumns: [SQLiteValue] { [.text(name), .real(caffeineMg), .null, .text(form.rawValue)] }

    init(key: String, undoColumns columns: UndoLog.Columns) {
        self.init(name: key, caffeineMg: columns.caffeineMg, form: columns.note.flatMap(DrinkForm.init(rawValue:)) ?? .beverage)
    }

    static func changedSince(key: String) -> ChangedRecord { .definition(key) }
}

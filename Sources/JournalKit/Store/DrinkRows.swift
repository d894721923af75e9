/// How drinks are read from and written to the `drinks` table.
enum DrinkRows {
    static let columns = "id, kind, caffeine_mg, consumed_at, note, deleted, hlc, origin, seq"

    static let upsert = """
        INSERT INTO drinks (id, kind, caffeine_mg, consumed_at, note, deleted, hlc, origin, seq)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET
            kind = excluded.kind, caffeine_mg = excluded.caffeine_mg, consumed_at = excluded.consumed_at,
            note = excluded.note, deleted = excluded.deleted, hlc = excluded.hlc, origin = excluded.origin,
            seq = excluded.seq
        """

    /// A row selected with `columns`, in that order.
    static func revision(_ row: SQLiteStatement) -> DrinkRevision {
        DrinkRevision(
            drink: drink(row), isDeleted: row.int64(5) != 0, clock: HybridTimestamp(rawValue: row.int64(6)),
            origin: DeviceID(rawValue: row.text(7)), sequence: row.int64(8))
    }

    /// The drink of a row selected with `columns` (or at least its first five).
    static func drink(_ row: SQLiteStatement) -> Drink {
        Drink(
            id: DrinkID(rawValue: row.text(0)), kind: row.text(1), caffeineMg: row.double(2),
            consumedAt: Timestamp(milliseconds: row.int64(3)), note: row.optionalText(4))
    }

    static func values(_ revision: DrinkRevision) -> [SQLiteValue] {
        let drink = revision.drink
        return [
            .text(drink.id.rawValue), .text(drink.kind), .real(drink.caffeineMg),
            .integer(drink.consumedAt.milliseconds), .text(orNull: drink.note), .integer(revision.isDeleted ? 1 : 0),
            .integer(revision.clock.rawValue), .text(revision.origin.rawValue), .integer(revision.sequence),
        ]
    }

    /// The stored state of `id`, tombstone or not.
    static func find(_ id: DrinkID, in connection: SQLiteConnection) throws -> DrinkRevision? {
        try connection.query("SELECT \(columns) FROM drinks WHERE id = ?", [.text(id.rawValue)], row: revision).first
    }
}

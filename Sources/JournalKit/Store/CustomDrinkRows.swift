/// How custom drinks are read from and written to the `custom_drinks` table.
enum CustomDrinkRows {
    static let columns = "name, caffeine_mg, deleted, hlc, origin, seq"

    static let upsert = """
        INSERT INTO custom_drinks (name, caffeine_mg, deleted, hlc, origin, seq) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (name) DO UPDATE SET
            caffeine_mg = excluded.caffeine_mg, deleted = excluded.deleted, hlc = excluded.hlc,
            origin = excluded.origin, seq = excluded.seq
        """

    static func revision(_ row: SQLiteStatement) -> DrinkKindRevision {
        DrinkKindRevision(
            name: row.text(0), caffeineMg: row.double(1), isDeleted: row.int64(2) != 0,
            clock: HybridTimestamp(rawValue: row.int64(3)), origin: DeviceID(rawValue: row.text(4)), sequence: row.int64(5))
    }

    static func values(_ revision: DrinkKindRevision) -> [SQLiteValue] {
        [
            .text(revision.name), .real(revision.caffeineMg), .integer(revision.isDeleted ? 1 : 0),
            .integer(revision.clock.rawValue), .text(revision.origin.rawValue), .integer(revision.sequence),
        ]
    }

    static func find(_ name: String, in connection: SQLiteConnection) throws -> DrinkKindRevision? {
        try connection.query("SELECT \(columns) FROM custom_drinks WHERE name = ?", [.text(name)], row: revision).first
    }
}

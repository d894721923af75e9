/// A payload kept in a table of its own: the payload's columns, then the columns every replicated
/// record has (`deleted`, `hlc`, `origin`, `seq`). The SQL for every kind is made here, once.
protocol StoredPayload: ReplicatedPayload {
    /// The table's name, apart from `table`: the SQL that spans every table names them without
    /// making each table's statements.
    static var tableName: String { get }
    static var table: RecordTable<Self> { get }
    /// The payload of a row selected with the table's columns, from column 0.
    init(row: SQLiteStatement)
    /// The payload's column values, in the table's column order.
    var columnValues: [SQLiteValue] { get }
}

/// How one kind of record is read from and written to its table. `Payload` is left unconstrained
/// here, and constrained where it is used: a generic type with a requirement makes the runtime check
/// the conformance when it first meets the type, which scans every conformance of the binary, on every
/// command that writes a drink.
struct RecordTable<Payload>: Sendable {
    let name: String
    let payloadColumns: [String]
    let select: String
    let upsert: String
    let find: String
    let ownAfter: String
    let anyAfter: String
    let ownCountAfter: String
    let ownExistsAfter: String

    /// `payloadColumns` starts with the key column.
    init(name: String, payloadColumns: [String]) {
        self.name = name
        self.payloadColumns = payloadColumns
        let columns = payloadColumns + ["deleted", "hlc", "origin", "seq"]
        let list = columns.concatenated(separator: ", ")
        select = "SELECT \(list) FROM \(name)"
        let placeholders = columns.map { _ in "?" }.concatenated(separator: ", ")
        let updates = columns.dropFirst().map { "\($0) = excluded.\($0)" }.concatenated(separator: ", ")
        upsert = "INSERT INTO \(name) (\(list)) VALUES (\(placeholders)) ON CONFLICT (\(columns[0])) DO UPDATE SET \(updates)"
        find = "\(select) WHERE \(columns[0]) = ?"
        // This device's own changes are its rows but those another device's log brought (`sync_received_own`).
        let own = "origin = ? AND seq NOT IN (SELECT seq FROM sync_received_own)"
        ownAfter = "\(select) WHERE \(own) AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?"
        anyAfter = "\(select) WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?"
        ownCountAfter = "SELECT count(*) FROM \(name) WHERE \(own) AND seq > ?"
        ownExistsAfter = "SELECT EXISTS (SELECT 1 FROM \(name) WHERE \(own) AND seq > ?)"
    }
}

extension RecordTable where Payload: StoredPayload {
    /// A row selected with `select`.
    func record(_ row: SQLiteStatement) -> Replicated<Payload> {
        let base = payloadColumns.count
        return Replicated(
            payload: Payload(row: row), isDeleted: row.int64(base) != 0, clock: HybridTimestamp(rawValue: row.int64(base + 1)),
            origin: DeviceID(rawValue: row.text(base + 2)), sequence: row.int64(base + 3))
    }

    /// The stored state of the record named `key`, tombstone or not.
    func find(_ key: String, in connection: SQLiteConnection) throws -> Replicated<Payload>? {
        try connection.query(find, [.text(key)], row: record).first
    }

    /// Writes `record` as it is, over whatever state its key had.
    func write(_ record: Replicated<Payload>, in connection: SQLiteConnection) throws {
        try connection.cached(upsert).run(
            record.payload.columnValues + [
                .integer(record.isDeleted ? 1 : 0), .integer(record.clock.rawValue), .text(record.origin.rawValue),
                .integer(record.sequence),
            ])
    }

    /// `device`'s records (every device's, when nil) written after `position` and up to `through`, in
    /// sequence order, at most `limit`.
    func records(of device: DeviceID?, after position: Int64, through: Int64, limit: Int, in connection: SQLiteConnection) throws
        -> [Replicated<Payload>]
    {
        let range: [SQLiteValue] = [.integer(position), .integer(through), .integer(Int64(max(limit, 1)))]
        guard let device else { return try connection.query(anyAfter, range, row: record) }
        return try connection.query(ownAfter, [.text(device.rawValue)] + range, row: record)
    }
}

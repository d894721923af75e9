import JournalKit

/// Every row `sql` gives on the journal at `path`, for tests that look inside the file.
func queryRows(_ sql: String, on path: String) throws -> [[SQLiteValue]] {
    var rows: [[SQLiteValue]] = []
    try UserSQL.run(sql, on: path) { event in
        if case .row(let values) = event { rows.append(values) }
    }
    return rows
}

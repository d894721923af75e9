import CSQLite

/// SQL a person typed (`journal sql`), run on a connection of its own that SQLite opened read-only
/// and that refuses changing settings, so nothing in the SQL can write the journal. Rows are handed
/// on one at a time, never gathered: a query of millions of rows uses little memory, and its first
/// rows show at once.
public enum UserSQL {
    /// What running the SQL produces, in order.
    public enum Event {
        /// Every statement was prepared and found read-only: how many of them return rows.
        case begin(results: Int)
        /// A statement that returns rows starts: its column names.
        case columns([String])
        case row([SQLiteValue])
    }

    /// Runs `sql`, every statement checked to be read-only before any runs, calling `handle` for each
    /// event.
    public static func run(_ sql: String, on path: String, handle: (Event) throws -> Void) throws {
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, readOnly: true, busyTimeoutMilliseconds: JournalFile.busyTimeoutMilliseconds)
        } catch {
            throw JournalFileError.notWritable(path: path, reason: error.message)
        }
        connection.allowOnlyReading()
        let statements: [SQLiteStatement]
        do {
            statements = try connection.prepareScript(sql)
        } catch {
            throw refusal(error, sql: error.sql ?? sql)
        }
        guard !statements.isEmpty else { throw ReadOnlySQLError(statement: "(no SQL given)") }
        // Pragmas that got past the authorizer only read (`pragma journal_mode`), though SQLite does
        // not mark them read-only; what they would write, the read-only connection refuses.
        if let writer = statements.first(where: { !$0.isReadOnly && !$0.sql.lowercased().hasPrefix("pragma") }) {
            throw ReadOnlySQLError(statement: writer.sql)
        }
        try handle(.begin(results: statements.filter { $0.columnCount > 0 }.count))
        for statement in statements {
            defer { statement.reset() }
            let count = statement.columnCount
            if count > 0 { try handle(.columns((0..<count).map(statement.columnName))) }
            do {
                while try statement.step() {
                    var values: [SQLiteValue] = []
                    values.reserveCapacity(count)
                    for column in 0..<count { values.append(statement.value(column)) }
                    try handle(.row(values))
                }
            } catch let error as SQLiteError {
                throw refusal(error, sql: statement.sql)
            }
        }
    }

    /// What a failure of the person's SQL means: it would write, or it cannot run as written.
    private static func refusal(_ error: SQLiteError, sql: String) -> any Error {
        if error.isReadOnly { return ReadOnlySQLError(statement: sql) }
        if error.primaryCode == SQLITE_ERROR { return SQLQueryError(message: error.message) }
        return error
    }
}

import CSQLite

/// The rows one statement of `journal sql` produced.
public struct QueryResult: Sendable, Equatable {
    public let columns: [String]
    public let rows: [[SQLiteValue]]
}

extension JournalStore {
    /// Runs SQL someone typed, refusing anything that could change the journal before running any of
    /// it: each statement must be read-only to SQLite, and runs with `query_only` on and ATTACH off
    /// (an attached file could be created or written).
    public func readOnlyQuery(_ sql: String) throws -> [QueryResult] {
        let statements: [SQLiteStatement]
        do {
            statements = try connection.prepareScript(sql)
        } catch {
            if error.primaryCode == SQLITE_ERROR { throw SQLQueryError(message: error.message) }
            throw error
        }
        guard !statements.isEmpty else {
            throw ReadOnlySQLError(statement: "(no SQL given)")
        }
        if let writer = statements.first(where: { !$0.isReadOnly || $0.sql.lowercased().hasPrefix("attach") }) {
            throw ReadOnlySQLError(statement: writer.sql)
        }
        let attachLimit = sqlite3_limit(connection.handle, SQLITE_LIMIT_ATTACHED, 0)
        try connection.executeScript("PRAGMA query_only = ON")
        defer {
            try? connection.executeScript("PRAGMA query_only = OFF")
            sqlite3_limit(connection.handle, SQLITE_LIMIT_ATTACHED, attachLimit)
        }
        var results: [QueryResult] = []
        for statement in statements {
            defer { statement.reset() }
            let columns = (0..<statement.columnCount).map(statement.columnName)
            var rows: [[SQLiteValue]] = []
            do {
                while try statement.step() { rows.append((0..<columns.count).map(statement.value)) }
            } catch {
                if error.isReadOnly { throw ReadOnlySQLError(statement: statement.sql) }
                if error.primaryCode == SQLITE_ERROR { throw SQLQueryError(message: error.message) }
                throw error
            }
            if !columns.isEmpty { results.append(QueryResult(columns: columns, rows: rows)) }
        }
        return results
    }
}

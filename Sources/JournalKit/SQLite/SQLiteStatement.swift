import CSQLite

/// A prepared statement. Finalized when the last reference goes, so an early `throw` cannot leak one
/// (a leaked statement keeps a read transaction open and blocks WAL checkpoints).
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: OpaquePointer
    let sql: String

    init(database: OpaquePointer, sql: String) throws(SQLiteError) {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(database, sql, -1, 0, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw SQLiteError.last(on: database, code: code == SQLITE_OK ? SQLITE_MISUSE : code, sql: sql)
        }
        self.statement = prepared
        self.database = database
        self.sql = sql
    }

    /// Takes ownership of a statement prepared elsewhere (one of several in a script).
    init(database: OpaquePointer, prepared: OpaquePointer, sql: String) {
        self.statement = prepared
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(statement) }

    /// True when the statement cannot change the database file (SELECT, and read-only PRAGMAs).
    var isReadOnly: Bool { sqlite3_stmt_readonly(statement) != 0 }

    /// Resets the statement and binds `values` to its parameters, in order.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        guard values.count == Int(sqlite3_bind_parameter_count(statement)) else {
            throw SQLiteError(
                extendedCode: SQLITE_RANGE,
                message: "\(values.count) values for \(sqlite3_bind_parameter_count(statement)) parameters",
                sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(statement, index)
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .real(let number): code = sqlite3_bind_double(statement, index, number)
            case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, journal_sqlite3_transient())
            case .blob(let bytes):
                code = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), journal_sqlite3_transient())
                }
            }
            guard code == SQLITE_OK else { throw SQLiteError.last(on: database, code: code, sql: sql) }
        }
    }

    /// Ends the current run: an unfinished SELECT otherwise keeps its read transaction open, which
    /// pins the WAL and stops checkpoints.
    func reset() {
        sqlite3_reset(statement)
    }

    /// Advances to the next row; false when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            sqlite3_reset(statement)
            throw SQLiteError.last(on: database, code: code, sql: sql)
        }
    }

    /// Runs the statement to completion, ignoring any rows.
    func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        defer { reset() }
        while try step() {}
    }

    var columnCount: Int { Int(sqlite3_column_count(statement)) }

    func columnName(_ index: Int) -> String {
        sqlite3_column_name(statement, Int32(index)).map { String(cString: $0) } ?? "column\(index + 1)"
    }

    func isNull(_ index: Int) -> Bool { sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL }
    func int64(_ index: Int) -> Int64 { sqlite3_column_int64(statement, Int32(index)) }
    func double(_ index: Int) -> Double { sqlite3_column_double(statement, Int32(index)) }

    func text(_ index: Int) -> String {
        guard let bytes = sqlite3_column_text(statement, Int32(index)) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ index: Int) -> String? { isNull(index) ? nil : text(index) }

    /// A column's bytes; empty for anything not a blob.
    func blob(_ index: Int) -> [UInt8] {
        if case .blob(let bytes) = value(index) { return bytes }
        return []
    }

    func value(_ index: Int) -> SQLiteValue {
        switch sqlite3_column_type(statement, Int32(index)) {
        case SQLITE_INTEGER: return .integer(int64(index))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_TEXT: return .text(text(index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, Int32(index)))
            guard count > 0, let bytes = sqlite3_column_blob(statement, Int32(index)) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}

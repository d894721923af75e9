import CSQLite

/// A failed SQLite call: the extended result code, SQLite's message and the SQL that failed.
///
/// The SQL is kept because "constraint failed" means little without it; bound values are never kept,
/// so a note or a key cannot leak into a log through an error.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code, such as `SQLITE_BUSY_SNAPSHOT` (517).
    public let extendedCode: Int32
    public let message: String
    public let sql: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`SQLITE_BUSY` for `SQLITE_BUSY_SNAPSHOT`), for matching in `catch`.
    public var primaryCode: Int32 { extendedCode & 0xFF }

    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    public var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB || primaryCode == SQLITE_CORRUPT }
    public var isDiskFull: Bool { primaryCode == SQLITE_FULL }
    public var isReadOnly: Bool { primaryCode == SQLITE_READONLY || primaryCode == SQLITE_AUTH }

    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }

    /// The error SQLite recorded on `handle` for the call that just returned `code`.
    static func last(on handle: OpaquePointer?, code: Int32, sql: String? = nil) -> SQLiteError {
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        return SQLiteError(extendedCode: extended == 0 ? code : extended, message: message, sql: sql)
    }
}

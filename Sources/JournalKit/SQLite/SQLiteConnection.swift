import CSQLite
import Glibc

/// One open SQLite database handle: prepare, run, query and transactions, nothing journal-specific.
///
/// Not `Sendable`: it belongs to whoever opened it (the `JournalStore` actor) and is used from that
/// owner's thread only.
final class SQLiteConnection {
    let handle: OpaquePointer
    /// How long a statement waits for another connection's lock before it fails.
    let busyTimeoutMilliseconds: Int32
    /// Statements prepared once and reused. A handful per command, so a list beats a dictionary,
    /// whose generic machinery costs more at start-up than it saves.
    private var statements: [SQLiteStatement] = []

    /// Opens (or creates) the file at `path` and fails early when it is not a SQLite database.
    init(path: String, readOnly: Bool = false, busyTimeoutMilliseconds: Int32) throws(SQLiteError) {
        var opened: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError.last(on: opened, code: code)
            // A handle is allocated even when opening fails, and must be closed all the same.
            sqlite3_close(opened)
            throw error
        }
        handle = opened
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        // Double-quoted strings silently becoming literals hides typos in `journal sql`; defensive mode
        // stops SQL (ours or a user's) from corrupting the file through writable_schema and the like.
        _ = journal_sqlite3_db_config_flag(handle, SQLITE_DBCONFIG_DQS_DML, 0)
        _ = journal_sqlite3_db_config_flag(handle, SQLITE_DBCONFIG_DQS_DDL, 0)
        _ = journal_sqlite3_db_config_flag(handle, SQLITE_DBCONFIG_DEFENSIVE, 1)
        _ = journal_sqlite3_db_config_flag(handle, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0)
        // A command is over in milliseconds; checkpointing the WAL as each one exits would double its
        // writes and fsyncs. Instead a commit that leaves the WAL past its bound checkpoints it and
        // truncates it, without waiting for anyone (see journal_wal_bound_hook).
        _ = journal_sqlite3_db_config_flag(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
        journal_bound_wal(handle, Self.walBoundFrames, busyTimeoutMilliseconds)
        // Opening is lazy; this first read is where a file that is not a database says so.
        do {
            _ = try queryInteger("SELECT count(*) FROM sqlite_schema")
        } catch {
            statements = []
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        statements = []
        sqlite3_close_v2(handle)
    }

    /// WAL frames (pages) a commit may leave before it checkpoints: about ten adds. Each process reads
    /// the whole WAL when it opens the file, so this bounds what a long WAL adds to every command
    /// (about 0.6 M instructions at the bound), and checkpointing a few pages every ten writes costs
    /// less than one fsync per command.
    static let walBoundFrames: Int32 = 128

    /// A statement prepared once and reused: the store runs the same few statements over and over.
    func cached(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        // A scan, not a dictionary (whose first use costs start-up a conformance scan); lengths first,
        // since SQL texts share long beginnings and a sync asks for a statement dozens of times a record.
        let length = sql.utf8.count
        for statement in statements where statement.sql.utf8.count == length && statement.sql == sql { return statement }
        let statement = try SQLiteStatement(database: handle, sql: sql)
        statements.append(statement)
        return statement
    }

    /// A statement for one-off SQL, finalized when released.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(database: handle, sql: sql)
    }

    /// Every statement of a script, prepared but not run; empty statements (stray semicolons,
    /// comments) are skipped.
    func prepareScript(_ script: String) throws(SQLiteError) -> [SQLiteStatement] {
        var statements: [SQLiteStatement] = []
        var failure: SQLiteError?
        script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var prepared: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v3(handle, current, -1, 0, &prepared, &tail)
                let length = tail.map { current.distance(to: $0) } ?? strlen(current)
                let text = String(decoding: UnsafeRawBufferPointer(start: current, count: length), as: UTF8.self)
                guard code == SQLITE_OK else {
                    failure = SQLiteError.last(on: handle, code: code, sql: text.trimmingSpaces)
                    return
                }
                if let prepared {
                    statements.append(SQLiteStatement(database: handle, prepared: prepared, sql: text.trimmingSpaces))
                }
                cursor = tail
            }
        }
        if let failure { throw failure }
        return statements
    }

    /// Runs one statement with bound values, ignoring rows.
    func run(_ sql: String, _ values: SQLiteValue...) throws(SQLiteError) {
        try cached(sql).run(values)
    }

    /// Runs one statement with bound values, ignoring rows.
    func run(_ sql: String, _ values: [SQLiteValue]) throws(SQLiteError) {
        try cached(sql).run(values)
    }

    /// Runs a script of several statements, such as a migration. Nothing may be bound.
    func executeScript(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: text, sql: nil)
        }
    }

    /// The first column of the first row, or nil when there is no row or it is NULL.
    func queryInteger(_ sql: String, _ values: SQLiteValue...) throws(SQLiteError) -> Int64? {
        let statement = try cached(sql)
        try statement.bind(values)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    func queryText(_ sql: String, _ values: SQLiteValue...) throws(SQLiteError) -> String? {
        let statement = try cached(sql)
        try statement.bind(values)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.optionalText(0)
    }

    /// Every row of `sql`, each turned into a value by `row`.
    func query<Row>(
        _ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteStatement) throws -> Row
    ) throws -> [Row] {
        let statement = try cached(sql)
        try statement.bind(values)
        defer { statement.reset() }
        var rows: [Row] = []
        while try statement.step() { rows.append(try row(statement)) }
        return rows
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in one read transaction: every read in it sees one snapshot, so a change committed
    /// between two of them cannot be seen by one and missed by the other. Ended whether `body` returns
    /// or throws.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN")
        defer { if isInTransaction { try? run("ROLLBACK") } }
        return try body()
    }

    /// Runs `body` with commits that do not wait for the disk (`synchronous = NORMAL`, then the
    /// connection's own setting again). In WAL mode such a commit can be lost to a power failure, never
    /// torn, and the next commit that waits makes it durable too. For bookkeeping whose loss costs
    /// nothing, never for what a person wrote.
    func withoutWaitingForTheDisk<T>(_ body: () throws -> T) throws -> T {
        let setting = try queryInteger("PRAGMA synchronous") ?? 2
        try run("PRAGMA synchronous = NORMAL")
        defer { try? run("PRAGMA synchronous = \(setting)") }
        return try body()
    }

    /// True when another connection holds the write lock, and still does after `milliseconds`: a
    /// transaction of its writing, whose commit others do not see yet. Asked by taking the lock when it
    /// is free (or comes free in time) and letting it go at once.
    func anotherConnectionIsWriting(waitingUpTo milliseconds: Int32) throws(SQLiteError) -> Bool {
        sqlite3_busy_timeout(handle, milliseconds)
        defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
        do { try run("BEGIN IMMEDIATE") } catch where error.isBusy { return true }
        try run("ROLLBACK")
        return false
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back when it
    /// throws. IMMEDIATE takes the write lock up front, so the busy timeout applies to it; a deferred
    /// transaction that later upgrades to a write can fail with SQLITE_BUSY whatever the timeout.
    func immediateTransaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            if isInTransaction { try? run("ROLLBACK") }
            throw error
        }
    }
}

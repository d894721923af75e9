import Glibc

/// Opens a journal's SQLite file the way DESIGN.md lays out, and nothing more: start-up cost is
/// part of every command.
struct JournalFile {
    let connection: SQLiteConnection
    let deviceID: DeviceID

    /// How long a write waits for another process's write lock before giving up.
    static let busyTimeoutMilliseconds: Int32 = 15_000

    init(path: String) throws {
        try JournalFile.prepareLocation(path)
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: JournalFile.busyTimeoutMilliseconds)
        } catch let error where error.isNotADatabase {
            throw JournalFileError.notADatabase(path: path)
        } catch {
            throw JournalFileError.notWritable(path: path, reason: error.message)
        }
        // Refuse a newer schema, or another program's database, before anything below writes to the
        // file (switching to WAL does). One statement, so one snapshot: a journal being created by
        // another process at this moment is seen either empty or whole.
        let probe = try connection.query(
            """
            SELECT (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_schema),
                   (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'meta')
            """
        ) { (version: $0.int64(0), objects: $0.int64(1), meta: $0.int64(2)) }.first
        let version = probe?.version ?? 0
        if version > Migration.latestVersion {
            throw JournalFileError.newerSchema(path: path, version: version, supported: Migration.latestVersion)
        }
        if (version == 0 && probe?.objects ?? 0 > 0) || (version > 0 && probe?.meta == 0) {
            throw JournalFileError.notAJournal(path: path)
        }
        try JournalFile.enableWriteAheadLog(connection, path: path)
        try connection.executeScript(
            "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA trusted_schema = OFF;")
        try Migrator.migrate(connection, path: path) { connection in
            try connection.run(
                "INSERT INTO meta (key, value) VALUES ('device_id', ?)", .text(UUIDText.random()))
            try JournalStore.recordFileIdentity(path: path, in: connection)
        }
        guard let device = try connection.queryText("SELECT value FROM meta WHERE key = 'device_id'") else {
            throw JournalFileError.notWritable(path: path, reason: "it has no device id; it was not made by journal")
        }
        self.connection = connection
        self.deviceID = DeviceID(rawValue: device)
    }

    /// Switches the file to WAL mode, which it keeps from then on. Switching needs an exclusive lock
    /// for a moment and SQLite does not wait for it (no busy handler), so when several processes
    /// create the journal at once, the losers retry here.
    static func enableWriteAheadLog(_ connection: SQLiteConnection, path: String) throws {
        var waitedMilliseconds: Int32 = 0
        while true {
            let mode: String?
            do {
                mode = try connection.queryText("PRAGMA journal_mode = WAL")
            } catch {
                guard error.isBusy, waitedMilliseconds < busyTimeoutMilliseconds else { throw error }
                usleep(2000)
                waitedMilliseconds += 2
                continue
            }
            guard mode?.lowercased() == "wal" else {
                throw JournalFileError.notWritable(
                    path: path, reason: "SQLite could not put it in WAL mode (it answered '\(mode ?? "nothing")'); "
                        + "is the folder on a network file system?")
            }
            return
        }
    }

    /// Creates the data folder (0700) and an empty database file (0600) when they do not exist yet,
    /// so SQLite never creates either with looser permissions. The -wal and -shm files inherit 0600.
    static func prepareLocation(_ path: String) throws {
        do {
            try FileSystem.makeFolders(FileSystem.parentFolder(of: path), mode: 0o700)
        } catch {
            throw JournalFileError.notWritable(path: error.path, reason: error.reason)
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            if errno == EROFS { throw JournalFileError.readOnlyDisk(path: path) }
            if errno == EACCES || errno == EISDIR {
                throw JournalFileError.notWritable(path: path, reason: reason)
            }
            // Read-only media still allow reading an existing journal; let SQLite try.
            guard access(path, R_OK) == 0 else { throw JournalFileError.notWritable(path: path, reason: reason) }
            return
        }
        close(descriptor)
    }
}

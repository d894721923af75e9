import CSQLite

import Glibc

/// What `journal backup` wrote.
public struct BackupSummary: Sendable, Equatable {
    public let path: String
    public let bytes: Int
    public let drinks: Int
}

extension JournalStore {
    /// Writes a consistent copy of the journal to `destination` with SQLite's online backup, safe
    /// while other processes (the daemon) write: everything committed, the WAL included, in one file
    /// that needs no `-wal` beside it. It is written 0600 under a temporary name, checked with
    /// `integrity_check`, flushed, and only then renamed into place, so `destination` is either the
    /// old file or a whole, verified new one. The copy opens with `--db` as it is.
    public func backup(to destination: String) throws -> BackupSummary {
        let target = FileSystem.absolute(destination)
        let folder = FileSystem.parentFolder(of: target)
        guard FileSystem.isFolder(folder) else { throw BackupError.noFolder(folder) }
        let temporary = folder + "/." + String(target.split(separator: "/").last ?? "journal") + ".tmp-"
            + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let descriptor = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileSystem.failure(temporary) }
        close(descriptor)
        defer { for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) } }
        let drinks: Int
        do {
            let copy = try SQLiteConnection(path: temporary, busyTimeoutMilliseconds: JournalFile.busyTimeoutMilliseconds)
            guard let backup = sqlite3_backup_init(copy.handle, "main", connection.handle, "main") else {
                throw SQLiteError.last(on: copy.handle, code: SQLITE_ERROR)
            }
            // One step copies every page under one read transaction: one consistent snapshot.
            let stepped = sqlite3_backup_step(backup, -1)
            let finished = sqlite3_backup_finish(backup)
            guard stepped == SQLITE_DONE, finished == SQLITE_OK else { throw SQLiteError.last(on: copy.handle, code: finished) }
            // A single file, without a write-ahead log to carry beside it.
            _ = try copy.queryText("PRAGMA journal_mode = DELETE")
            let check = try copy.queryText("PRAGMA integrity_check")
            guard check == "ok" else { throw BackupError.notIntact(check ?? "no answer") }
            drinks = Int(try copy.queryInteger("SELECT count(*) FROM drinks WHERE deleted = 0") ?? 0)
        }
        let file = open(temporary, O_RDONLY | O_CLOEXEC)
        guard file >= 0, fsync(file) == 0 else { throw FileSystem.failure(temporary) }
        var info = stat()
        fstat(file, &info)
        close(file)
        guard rename(temporary, target) == 0 else { throw FileSystem.failure(target) }
        try FileSystem.syncFolder(folder)
        return BackupSummary(path: target, bytes: Int(info.st_size), drinks: drinks)
    }
}

/// A backup that could not be made; the destination is left as it was.
public enum BackupError: JournalFailure, Equatable {
    case noFolder(String)
    case notIntact(String)

    public var kind: FailureKind { .failure }

    public var description: String {
        switch self {
        case .noFolder(let folder): return "cannot back up into \(folder): there is no such folder."
        case .notIntact(let answer):
            return "the copy did not pass SQLite's integrity check (\(answer)), so it was not kept. The journal "
                + "itself may be damaged; keep its file, with its -wal, before doing anything else."
        }
    }
}

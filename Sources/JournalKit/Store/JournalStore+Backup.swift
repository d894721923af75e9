import CSQLite

import Glibc

/// What `journal backup` wrote.
public struct BackupSummary: Sendable, Equatable {
    public let path: String
    public let bytes: Int
    public let drinks: Int
}

extension JournalStore {
    /// Writes a consistent copy of the journal to `target` with SQLite's online backup, safe while
    /// other processes (the daemon) write: everything committed, the WAL included, in one file that
    /// needs no `-wal` beside it. It is written 0600 as a `TemporaryFile`, checked with
    /// `integrity_check`, and only then put in place, so the target is either the old file or a
    /// whole, verified new one. The copy opens with `--db` as it is. Temporaries that earlier backups
    /// killed midway left in that folder are removed first.
    public func backup(to target: BackupTarget) throws -> BackupSummary {
        let folder = open(target.folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw BackupError.noFolder(target.folder) }
        defer { close(folder) }
        TemporaryFile.removeLeftovers(inFolder: folder, path: target.folder)
        Self.removeOlderLeftovers(of: target.name, inFolder: folder, path: target.folder)
        let temporary: TemporaryFile
        do { temporary = try TemporaryFile(inFolder: folder, path: target.folder, mode: 0o600) } catch {
            if [EACCES, EPERM, EROFS].contains(error.code) { throw BackupError.folderNotWritable(target.folder, reason: error.reason) }
            throw error
        }
        let drinks: Int
        do {
            let copy = try SQLiteConnection(path: temporary.path, busyTimeoutMilliseconds: JournalFile.busyTimeoutMilliseconds)
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
        let bytes = try temporary.size()
        try temporary.place(as: target.name, replacing: true)
        return BackupSummary(path: target.path, bytes: bytes, drinks: drinks)
    }

    /// Temporaries of backups made before `TemporaryFile`: `.NAME.tmp-HEX`, and SQLite's files beside them.
    private static func removeOlderLeftovers(of name: String, inFolder folder: Int32, path: String) {
        let prefix = "." + name + ".tmp-"
        for entry in (try? FileSystem.list(descriptor: folder, path: path)) ?? [] where entry.hasPrefix(prefix) {
            var rest = Substring(entry.dropFirst(prefix.count))
            for suffix in JournalPaths.sqliteCompanionSuffixes where rest.hasSuffix(suffix) { rest = rest.dropLast(suffix.count) }
            if (1...8).contains(rest.count), rest.allSatisfy(\.isHexDigit) { unlinkat(folder, entry, 0) }
        }
    }
}

/// A backup that could not be made; the destination is left as it was.
public enum BackupError: JournalFailure, Equatable {
    case noFolder(String)
    case folderNotWritable(String, reason: String)
    /// The target is the journal, or a file it keeps beside it (`what` says which).
    case isJournalFile(path: String, what: String)
    case notAFile(path: String, type: BackupTarget.FileType)
    case danglingLink(path: String)
    case notIntact(String)

    public var kind: FailureKind {
        switch self {
        case .isJournalFile, .notAFile, .danglingLink: return .usage
        case .folderNotWritable: return .setup
        case .noFolder, .notIntact: return .failure
        }
    }

    public var description: String {
        switch self {
        case .noFolder(let folder): return "cannot back up into \(folder): there is no such folder."
        case .folderNotWritable(let folder, let reason):
            return "cannot back up into \(folder): \(reason.prefix(1).lowercased() + reason.dropFirst()). Choose a folder you can write, "
                + "or give yourself the right to write this one."
        case .isJournalFile(let path, let what):
            return "\(path) is \(what): a backup written there would be overwritten by the journal, or would destroy it. "
                + "Give a file elsewhere, such as ~/journal-backup.db."
        case .notAFile(let path, let type):
            return "\(path) is a \(type.rawValue), not a file: a backup replaces a regular file or makes a new one. "
                + (type == .folder ? "Give a file name in it, such as \(path.hasSuffix("/") ? path : path + "/")journal-backup.db." : "Give a file name.")
        case .danglingLink(let path):
            return "\(path) is a symbolic link to nothing: give the file the backup is to be written to."
        case .notIntact(let answer):
            return "the copy did not pass SQLite's integrity check (\(answer)), so it was not kept. The journal "
                + "itself may be damaged; keep its file, with its -wal, before doing anything else."
        }
    }
}

import Glibc

/// Which file a journal is: the machine, the file system and the file's inode. SQLite never
/// replaces its file, so the identity stays for the journal's life; a copy of the file, or a backup
/// restored over it, has another. Sync uses it to notice a copy before it publishes as the original,
/// and the path it was recorded at to tell a copy from a backup put back in its place.
enum FileIdentity {
    static func of(_ path: String) -> String {
        let file = inode(of: path)
        return file.isEmpty ? "" : "\(machineID):\(file)"
    }

    /// The machine part of an identity.
    static func machine(of identity: String) -> Substring { identity.prefix { $0 != ":" } }

    /// `path` with links and `.` and `..` resolved, as recorded: `--db ./j.db` and the daemon's
    /// absolute path name one place alike. `path` as given when it cannot be resolved.
    static func place(of path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The file system and inode of the file at `path`: which file the path names now, on this
    /// machine ("" when there is none). Cheap enough for every command to take when it opens a journal.
    static func inode(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "" }
        return "\(info.st_dev):\(info.st_ino)"
    }

    /// /etc/machine-id, which systemd makes once per installation; empty where there is none.
    private static let machineID: String = {
        guard let bytes = try? FileSystem.readFile("/etc/machine-id", limit: 4096, what: "a machine id") else { return "" }
        return String(decoding: bytes, as: UTF8.self).trimmingSpaces
    }()
}

/// Whether a journal's file is the one its identity was recorded for.
public enum FileStanding: Sendable, Equatable {
    case original
    /// Another file at the same path on the same machine: a backup put back in the journal's place.
    /// It syncs as a device that was offline would: what it published since the backup is on the hub,
    /// signed with its key, and it takes it back.
    case restoredInPlace
    /// A copy elsewhere, or on another machine: two copies publishing as one device would lose changes.
    case copied
}

extension JournalStore {
    /// How the journal's file stands against the identity recorded for it (when it was made, or given a
    /// new device id); a journal made before identities were recorded gets one now.
    public func fileStanding() throws -> FileStanding {
        guard let standing = try recordedFileStanding() else {
            try recordFileIdentity()
            return .original
        }
        return standing
    }

    /// How the journal's file stands against its recorded identity; nil when none was recorded.
    func recordedFileStanding() throws -> FileStanding? {
        guard let recorded = try connection.queryText("SELECT value FROM meta WHERE key = 'file_identity'") else { return nil }
        let current = FileIdentity.of(path)
        if recorded == current { return .original }
        // A journal whose place was not recorded (made before places were) cannot tell a backup put back
        // in place from a copy: a copy, as before.
        guard let recordedPlace = try connection.queryText("SELECT value FROM meta WHERE key = 'file_path'") else { return .copied }
        let sameMachine = FileIdentity.machine(of: recorded) == FileIdentity.machine(of: current)
        return sameMachine && recordedPlace == FileIdentity.place(of: path) ? .restoredInPlace : .copied
    }

    /// Records where the journal's file is, for a journal whose identity was recorded before places
    /// were, while it is its original file: nothing when it is recorded.
    public func recordPlaceIfMissing() throws {
        guard try connection.queryText("SELECT value FROM meta WHERE key = 'file_path'") == nil else { return }
        try recordFileIdentity()
    }

    /// Records the file as the journal's own from now on: a restored journal once it caught up.
    public func recordFileIdentity() throws {
        try write(nil) { _ in try JournalStore.recordFileIdentity(path: path, in: connection) }
    }

    static func recordFileIdentity(path: String, in connection: SQLiteConnection) throws {
        try connection.run(
            "INSERT INTO meta (key, value) VALUES ('file_identity', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            .text(FileIdentity.of(path)))
        try connection.run(
            "INSERT INTO meta (key, value) VALUES ('file_path', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            .text(FileIdentity.place(of: path)))
    }
}

import Glibc

/// Which file a journal is: the machine, the file system and the file's inode. SQLite never
/// replaces its file, so the identity stays for the journal's life; a copy of the file, or a backup
/// restored over it, has another. Sync uses it to notice a copy before it publishes as the original.
enum FileIdentity {
    static func of(_ path: String) -> String {
        let file = inode(of: path)
        return file.isEmpty ? "" : "\(machineID):\(file)"
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

extension JournalStore {
    /// True when the journal's file is the one its identity was recorded for (when it was made, or
    /// given a new device id); a journal made before identities were recorded gets one now.
    public func isOriginalFile() throws -> Bool {
        guard let original = try isRecordedFile() else {
            try recordFileIdentity()
            return true
        }
        return original
    }

    /// True when the journal's file is the one its identity was recorded for; nil when none was.
    func isRecordedFile() throws -> Bool? {
        try connection.queryText("SELECT value FROM meta WHERE key = 'file_identity'").map { $0 == FileIdentity.of(path) }
    }

    func recordFileIdentity() throws {
        try write(nil) { _ in try JournalStore.recordFileIdentity(path: path, in: connection) }
    }

    static func recordFileIdentity(path: String, in connection: SQLiteConnection) throws {
        try connection.run(
            "INSERT INTO meta (key, value) VALUES ('file_identity', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            .text(FileIdentity.of(path)))
    }
}

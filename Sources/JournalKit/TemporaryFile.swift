import Glibc

/// A file made under a temporary name in the folder it is for, then put in place whole: flushed,
/// renamed (or linked, never replacing what is there), and the folder flushed, so that a crash
/// leaves the old state or the new and never half a file. The one way the journal writes a file
/// that must not be seen half written: a backup, the sync key, a setting, a hub's segment.
///
/// Every temporary is named the same way, `.journal-tmp-` and eight hex digits, whatever it is for:
/// short, so it works wherever the final name does (a 250-byte name would pass NAME_MAX once
/// suffixed), and starting with a dot, which hub readers and most tools ignore. It is locked (`flock`)
/// while it is written, and the lock dies with its process, so a temporary nobody holds was left by
/// a process that died: `removeLeftovers` takes it away, with the files SQLite made beside it.
public final class TemporaryFile {
    public static let prefix = ".journal-tmp-"

    private let folder: Int32
    public let folderPath: String
    public let name: String
    private let descriptor: Int32
    private var placed = false

    /// Where the temporary is, for a writer that opens it by path (SQLite).
    public var path: String { folderPath + "/" + name }

    /// Makes a new temporary in the open folder `folder` (named `folderPath` in messages), with `mode`.
    public init(inFolder folder: Int32, path folderPath: String, mode: mode_t) throws(FileSystem.Failure) {
        let copy = dup(folder)
        guard copy >= 0 else { throw FileSystem.failure(folderPath) }
        while true {
            let name = Self.prefix + Self.randomHex()
            let opened = openat(copy, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if opened < 0 {
                if errno == EEXIST { continue }
                let error = FileSystem.failure(folderPath)
                close(copy)
                throw error
            }
            // Taken at once, so another process's clean-up cannot take the new file for a leftover.
            flock(opened, LOCK_EX)
            // Applied again: the umask may have taken bits that a shared hub's group needs.
            fchmod(opened, mode)
            self.folder = copy
            self.folderPath = folderPath
            self.name = name
            self.descriptor = opened
            return
        }
    }

    /// Makes a new temporary in the folder at `folderPath`.
    public convenience init(inFolderAt folderPath: String, mode: mode_t) throws(FileSystem.Failure) {
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw FileSystem.failure(folderPath) }
        defer { close(folder) }
        try self.init(inFolder: folder, path: folderPath, mode: mode)
    }

    deinit {
        if !placed { Self.remove(name, in: folder) }
        close(descriptor)
        close(folder)
    }

    public func write(_ bytes: [UInt8]) throws(FileSystem.Failure) {
        try FileSystem.writeAll(bytes, to: descriptor, name: path)
    }

    /// The temporary's size in bytes.
    public func size() throws(FileSystem.Failure) -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileSystem.failure(path) }
        return Int(info.st_size)
    }

    /// Flushes the temporary and puts it in place as `finalName`: replacing what is there, or, with
    /// `replacing: false`, failing with EEXIST when something is.
    public func place(as finalName: String, replacing: Bool) throws(FileSystem.Failure) {
        let target = folderPath + "/" + finalName
        guard fsync(descriptor) == 0 else { throw FileSystem.failure(path) }
        // linkat refuses to replace; renameat replaces atomically.
        if replacing {
            guard renameat(folder, name, folder, finalName) == 0 else { throw FileSystem.failure(target) }
        } else {
            guard linkat(folder, name, folder, finalName, 0) == 0 else { throw FileSystem.failure(target) }
            unlinkat(folder, name, 0)
        }
        placed = true
        try FileSystem.syncFolder(descriptor: folder, path: folderPath)
    }

    /// Removes the temporaries in the open folder `folder` that no process holds (left by one that
    /// died), and what SQLite made beside them. Returns their names.
    @discardableResult
    public static func removeLeftovers(inFolder folder: Int32, path: String) -> [String] {
        guard let names = try? FileSystem.list(descriptor: folder, path: path) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) && isUnheld(name, in: folder) {
            remove(name, in: folder)
            removed.append(name)
        }
        // What SQLite left beside a temporary that is already gone.
        for name in names where name.hasPrefix(prefix) {
            for suffix in JournalPaths.sqliteCompanionSuffixes where name.hasSuffix(suffix) {
                let base = String(name.dropLast(suffix.count))
                if !names.contains(base) || removed.contains(base) {
                    unlinkat(folder, name, 0)
                    removed.append(name)
                }
            }
        }
        return removed
    }

    /// True when `name` is one of our temporaries whose writer is gone: nobody holds its lock.
    private static func isUnheld(_ name: String, in folder: Int32) -> Bool {
        guard isTemporaryName(name) else { return false }
        let opened = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard opened >= 0 else { return false }
        defer { close(opened) }
        var info = stat()
        guard fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return flock(opened, LOCK_EX | LOCK_NB) == 0
    }

    /// `.journal-tmp-` and eight hex digits, nothing more.
    static func isTemporaryName(_ name: String) -> Bool {
        let hex = name.utf8.dropFirst(prefix.utf8.count)
        return name.hasPrefix(prefix) && hex.count == 8 && hex.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func remove(_ name: String, in folder: Int32) {
        unlinkat(folder, name, 0)
        for suffix in JournalPaths.sqliteCompanionSuffixes { unlinkat(folder, name + suffix, 0) }
    }

    private static func randomHex() -> String {
        let value = UInt32.random(in: 0...UInt32.max)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

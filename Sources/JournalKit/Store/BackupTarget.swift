import Glibc

/// Where `journal backup` may write: a regular file, or nothing yet, in a folder that exists; never
/// one of the journal's own files (the database, what SQLite keeps beside it, the locks, the key,
/// the settings), however its path is spelled (`DIR/./journal.db`, `DIR//journal.db`, a symbolic
/// link, a hard link): SQLite would go on writing its live files over a backup put there, and the
/// journal would be lost with it.
public struct BackupTarget: Sendable, Equatable {
    /// The folder the backup goes in, with every link resolved.
    public let folder: String
    public let name: String

    public var path: String { (folder == "/" ? "" : folder) + "/" + name }

    /// Resolves `destination` and checks it against `protected`, the journal's files.
    public static func resolve(
        _ destination: String, protecting protected: [(path: String, what: String)], inside folders: [(path: String, what: String)] = []
    ) throws(BackupError) -> BackupTarget {
        let absolute = FileSystem.absolute(destination)
        let last = String(absolute[absolute.index(after: absolute.lastIndex(of: "/") ?? absolute.startIndex)...])
        guard !last.isEmpty, last != ".", last != ".." else { throw BackupError.notAFile(path: destination, type: .folder) }
        let target: BackupTarget
        var info = stat()
        if lstat(absolute, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            // A link is followed, as cp follows one: the backup goes where it points.
            guard let resolved = realPath(absolute) else { throw BackupError.danglingLink(path: destination) }
            target = BackupTarget(resolved)
        } else {
            let parent = FileSystem.parentFolder(of: absolute)
            guard let folder = realPath(parent), FileSystem.isFolder(folder) else { throw BackupError.noFolder(parent) }
            target = BackupTarget(folder: folder, name: last)
        }
        if stat(target.path, &info) == 0 {
            if let type = FileType(mode: info.st_mode) { throw BackupError.notAFile(path: destination, type: type) }
            for file in protected {
                var other = stat()
                if stat(file.path, &other) == 0, other.st_dev == info.st_dev, other.st_ino == info.st_ino {
                    throw BackupError.isJournalFile(path: destination, what: file.what)
                }
            }
        }
        // Files that do not exist yet are told by name: the -journal of a transaction to come, a
        // -wal that the next write makes.
        for file in protected where resolvedName(file.path) == target.path {
            throw BackupError.isJournalFile(path: destination, what: file.what)
        }
        for folder in folders {
            guard let protected = realPath(folder.path), target.folder == protected || target.folder.hasPrefix(protected + "/") else { continue }
            throw BackupError.isJournalFile(path: destination, what: "in " + folder.what)
        }
        return target
    }

    /// What is not a regular file, and so cannot be replaced by a backup.
    public enum FileType: String, Sendable, Equatable {
        case folder, characterDevice = "character device", blockDevice = "block device", fifo = "FIFO", socket

        /// The type of a file of `mode`; nil for a regular file.
        init?(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: return nil
            case S_IFDIR: self = .folder
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            case S_IFIFO: self = .fifo
            default: self = .socket
            }
        }
    }

    private init(folder: String, name: String) {
        self.folder = folder
        self.name = name
    }

    private init(_ resolved: String) {
        self.init(
            folder: FileSystem.parentFolder(of: resolved),
            name: String(resolved[resolved.index(after: resolved.lastIndex(of: "/") ?? resolved.startIndex)...]))
    }

    /// `path` with its folder's links resolved, whether or not the file itself exists.
    private static func resolvedName(_ path: String) -> String? {
        let absolute = FileSystem.absolute(path)
        guard let folder = realPath(FileSystem.parentFolder(of: absolute)) else { return nil }
        return (folder == "/" ? "" : folder) + "/" + String(absolute[absolute.index(after: absolute.lastIndex(of: "/") ?? absolute.startIndex)...])
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

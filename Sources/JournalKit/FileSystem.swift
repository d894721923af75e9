import Glibc

/// The file operations the journal needs, on the C library directly (no Foundation at start-up), with
/// the durability a shared folder requires: a file written atomically appears whole under its final
/// name or not at all.
public enum FileSystem {
    public struct Failure: JournalFailure {
        public let path: String
        public let reason: String
        public let code: Int32

        public init(path: String, reason: String, code: Int32) {
            self.path = path
            self.reason = reason
            self.code = code
        }

        /// A file that is not what it must be (too large, not a regular file) is bad data; a read-only
        /// disk is a setup to change; the rest is a failure.
        public var kind: FailureKind {
            switch code {
            case EFBIG, EFTYPE: return .badData
            case EROFS: return .setup
            default: return .failure
            }
        }
        public var description: String { "\(path): \(reason)" }
        public var isMissing: Bool { code == ENOENT || code == ENOTDIR }
    }

    /// Not a regular file (Linux has no EFTYPE; this value, which no errno takes, stands for it).
    public static let EFTYPE: Int32 = -1

    /// Writes all of `bytes` to `descriptor`; a write of 0 bytes is a failure, not a loop.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32, name: String) throws(Failure) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(name)
            }
            if count == 0 { throw Failure(path: name, reason: String(cString: strerror(EIO)), code: EIO) }
            written += count
        }
    }

    /// The failure `errno` describes, for `path`.
    public static func failure(_ path: String) -> Failure {
        Failure(path: path, reason: String(cString: strerror(errno)), code: errno)
    }

    /// The bytes of the regular file at `path`, at most `limit` of them: a larger file is refused, and
    /// so is anything but a regular file (a FIFO, a device, a folder), opened without blocking. With
    /// `followingLinks: false` a symbolic link is refused too. `what` names the file in the refusal:
    /// "a segment", "an import file".
    public static func readFile(_ path: String, limit: Int, what: String, followingLinks: Bool = true) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            if errno == ELOOP { throw Failure(path: path, reason: "it is a symbolic link, which is not followed here", code: EFTYPE) }
            throw failure(path)
        }
        defer { close(descriptor) }
        return try readRegularFile(descriptor, name: path, limit: limit, what: what)
    }

    /// Where `path` leads once its symbolic links are followed, and the permission bits of what is
    /// there; nil when nothing is.
    public static func resolved(_ path: String) -> (path: String, mode: mode_t)? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        let resolved = String(cString: real)
        var info = stat()
        guard stat(resolved, &info) == 0 else { return nil }
        return (resolved, info.st_mode & 0o7777)
    }

    /// Up to the first `count` bytes of the regular file at `path`; none when it is not one or
    /// cannot be read (the reading that follows says why).
    public static func firstBytes(of path: String, count: Int) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
        return read > 0 ? Array(bytes.prefix(read)) : []
    }

    /// The bytes of the regular file open as `descriptor`, at most `limit`.
    /// What `name` being no regular file (a FIFO, a socket, a device, a folder) means for reading it
    /// as `what`.
    public static func notRegularFile(_ name: String, what: String) -> Failure {
        Failure(path: name, reason: "it is not a regular file (a FIFO, a socket, a device or a folder cannot be \(what))", code: EFTYPE)
    }

    public static func readRegularFile(_ descriptor: Int32, name: String, limit: Int, what: String) throws(Failure) -> [UInt8] {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(name) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw notRegularFile(name, what: what) }
        guard info.st_size <= limit else { throw tooLarge(name, limit: limit, what: what) }
        return try readAll(descriptor, name: name, limit: limit, what: what)
    }

    /// Everything left to read from `descriptor` (a file, or stdin), refused past `limit` bytes.
    public static func readAll(_ descriptor: Int32, name: String, limit: Int, what: String) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(name)
            }
            guard bytes.count + count <= limit else { throw tooLarge(name, limit: limit, what: what) }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    private static func tooLarge(_ name: String, limit: Int, what: String) -> Failure {
        Failure(path: name, reason: "it is larger than \(ByteCount(limit)), more than \(what) can be", code: EFBIG)
    }

    /// Writes `bytes` to `path` whole or not at all, through a `TemporaryFile` beside it. With
    /// `replacing: false` an existing file at `path` is left alone and the write fails (EEXIST).
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t, replacing: Bool = true) throws(Failure) {
        let temporary = try TemporaryFile(inFolderAt: parentFolder(of: path), mode: mode)
        try temporary.write(bytes)
        try temporary.place(as: String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...]), replacing: replacing)
    }

    static func syncFolder(_ folder: String) throws(Failure) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(folder) }
        defer { close(descriptor) }
        try syncFolder(descriptor: descriptor, path: folder)
    }

    /// Flushes the open folder `descriptor` (named `path` in messages): a rename in it is on disk.
    public static func syncFolder(descriptor: Int32, path: String) throws(Failure) {
        // Some network file systems cannot fsync a folder; the rename is then as durable as they allow.
        if fsync(descriptor) != 0 && errno != EINVAL && errno != ENOTSUP { throw failure(path) }
    }

    /// Names in a folder, without "." and "..".
    public static func list(_ folder: String) throws(Failure) -> [String] {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(folder) }
        defer { close(descriptor) }
        return try list(descriptor: descriptor, path: folder)
    }

    /// Names in the open folder `descriptor`, which stays open, without "." and ".."; `path` names
    /// it in errors.
    public static func list(descriptor: Int32, path: String) throws(Failure) -> [String] {
        // closedir closes the descriptor fdopendir was given: it gets a copy.
        let copy = dup(descriptor)
        guard copy >= 0, let directory = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            throw failure(path)
        }
        defer { closedir(directory) }
        // The copy shares the folder's read position with `descriptor`: an earlier listing left it at the end.
        rewinddir(directory)
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    public static func makeFolders(_ folder: String, mode: mode_t) throws(Failure) {
        if isFolder(folder) { return }
        let parent = parentFolder(of: folder)
        if parent != folder { try makeFolders(parent, mode: mode) }
        if mkdir(folder, mode) != 0 && errno != EEXIST { throw failure(folder) }
    }

    public static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` made absolute against the current folder, so a stored hub location means the same later.
    public static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let current = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path == "." ? current : current + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }
}

/// A size in bytes as people read it: "64 KiB", "256 MiB".
public struct ByteCount: CustomStringConvertible, Sendable {
    public let bytes: Int

    public init(_ bytes: Int) { self.bytes = bytes }

    public var description: String {
        let units = ["bytes", "KiB", "MiB", "GiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : "\(formatMilligrams(value)) \(units[unit])"
    }
}

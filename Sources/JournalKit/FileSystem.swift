import Glibc

/// The file operations the journal needs, on the C library directly (no Foundation at start-up), with
/// the durability a shared folder requires: a file written atomically appears whole under its final
/// name or not at all.
public enum FileSystem {
    public struct Failure: JournalFailure {
        public let path: String
        public let reason: String
        public let code: Int32
        public var kind: FailureKind { code == EROFS ? .setup : .failure }
        public var description: String { "\(path): \(reason)" }
        public var isMissing: Bool { code == ENOENT || code == ENOTDIR }
    }

    /// The failure `errno` describes, for `path`.
    public static func failure(_ path: String) -> Failure {
        Failure(path: path, reason: String(cString: strerror(errno)), code: errno)
    }

    public static func readFile(_ path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path) }
        defer { close(descriptor) }
        return try readAll(descriptor, name: path)
    }

    /// Everything left to read from `descriptor` (a file, or stdin).
    public static func readAll(_ descriptor: Int32, name: String) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(name)
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// Writes `bytes` to a temporary name beginning with a dot (which readers ignore), flushes it to
    /// disk, renames it into place and flushes the folder, so a crash leaves the old state or the new.
    /// With `replacing: false` an existing file at `path` is left alone and the write fails (EEXIST).
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t, replacing: Bool = true) throws(Failure) {
        let folder = parentFolder(of: path)
        let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
        let temporary = folder + "/." + name + ".tmp-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure(temporary) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                let error = failure(temporary)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let error = failure(temporary)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        // link() refuses to replace; rename() replaces atomically.
        guard (replacing ? rename(temporary, path) : link(temporary, path)) == 0 else {
            let error = failure(path)
            unlink(temporary)
            throw error
        }
        if !replacing { unlink(temporary) }
        try syncFolder(folder)
    }

    static func syncFolder(_ folder: String) throws(Failure) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(folder) }
        defer { close(descriptor) }
        // Some network file systems cannot fsync a folder; the rename is then as durable as they allow.
        if fsync(descriptor) != 0 && errno != EINVAL && errno != ENOTSUP { throw failure(folder) }
    }

    /// Names in a folder, without "." and "..".
    public static func list(_ folder: String) throws(Failure) -> [String] {
        guard let directory = opendir(folder) else { throw failure(folder) }
        defer { closedir(directory) }
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

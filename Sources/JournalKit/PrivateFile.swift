import Glibc

/// A file that holds a secret (the sync key, a server password): read only when it is its owner's
/// alone, as OpenSSH reads a private key. Anyone who can read it has the secret, and anyone who can
/// replace it decides where the journal sends its data.
public enum PrivateFile {
    /// The bytes at `path`, at most `limit`; nil when there is no file. `what` names it in messages
    /// ("the sync key"), `exposure` says what a reader of it could do.
    public static func read(_ path: String, limit: Int, what: String, exposure: String) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw FileSystem.failure(path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileSystem.failure(path) }
        if (info.st_mode & S_IFMT) == S_IFREG {
            guard info.st_uid == geteuid() else {
                throw UnprotectedFileError(path: path, what: what, exposure: exposure, problem: .owner(info.st_uid))
            }
            guard info.st_mode & 0o077 == 0 else {
                throw UnprotectedFileError(path: path, what: what, exposure: exposure, problem: .mode(info.st_mode & 0o777))
            }
        }
        return try FileSystem.readRegularFile(descriptor, name: path, limit: limit, what: what)
    }

    /// Writes `bytes` to `path` atomically, readable by its owner only; its folder is made 0700.
    /// Unless `replacing`, never over a file there (EEXIST): two processes making it at once keep one.
    public static func write(_ bytes: [UInt8], to path: String, replacing: Bool = true) throws {
        try FileSystem.makeFolders(FileSystem.parentFolder(of: path), mode: 0o700)
        try FileSystem.writeAtomically(bytes, to: path, mode: 0o600, replacing: replacing)
    }
}

/// A secret's file that others can read or write, or that another user owns: not used.
public struct UnprotectedFileError: JournalFailure, Equatable {
    public enum Problem: Sendable, Equatable {
        /// Others may read or write it: these are its permission bits.
        case mode(mode_t)
        /// Another user owns it.
        case owner(uid_t)
    }

    public let path: String
    public let what: String
    public let exposure: String
    public let problem: Problem

    public var kind: FailureKind { .setup }

    public var description: String {
        switch problem {
        case .mode(let mode):
            return "\(what) \(path) can be read or written by other users (mode \(String(mode, radix: 8))), so it was "
                + "not used: \(exposure). Make it yours alone with: chmod 600 '\(path)'"
        case .owner(let uid):
            return "\(what) \(path) belongs to another user (uid \(uid)), so it was not used. Make it yours with: "
                + "chown \(geteuid()) '\(path)' && chmod 600 '\(path)'"
        }
    }
}

import Crypto
import FoundationEssentials
import JournalKit

import Glibc

/// The journal's 32-byte sync key: everything on the hub is sealed with it. Written as 64 hex
/// characters, stored 0600, and never printed except by `journal sync key`.
public struct SyncKey: Sendable {
    let key: SymmetricKey

    public init() { key = SymmetricKey(size: .bits256) }

    /// Reads a key from its hex text (surrounding whitespace allowed).
    public init(hex text: String, source: String) throws(SyncError) {
        let digits = Array(text.utf8).filter { ![32, 9, 10, 13].contains($0) }
        guard digits.count == 64, let bytes = Hex.decode(digits) else { throw SyncError.malformedKey(source: source) }
        key = SymmetricKey(data: bytes)
    }

    /// The key as 64 lowercase hex characters.
    public var hex: String {
        key.withUnsafeBytes { Hex.encode($0) }
    }

    /// A value that tells whether a key is a hub's key without revealing it: HMAC-SHA256 of a fixed
    /// label, first 16 bytes.
    public var check: String {
        let code = HMAC<SHA256>.authenticationCode(for: Array("journal hub key check v1".utf8), using: key)
        return Hex.encode(code.prefix(16))
    }

    /// Reads the key file at `path`; nil when there is none. Refused, as OpenSSH refuses a private
    /// key, when another user owns it or others can read or write it: anyone who can read the key can
    /// read the hub, and anyone who can replace it can make this journal publish to them.
    public static func load(from path: String) throws -> SyncKey? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw FileSystem.failure(path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileSystem.failure(path) }
        if (info.st_mode & S_IFMT) == S_IFREG {
            guard info.st_uid == geteuid() else { throw SyncError.keyUnprotected(path: path, problem: .owner(info.st_uid)) }
            guard info.st_mode & 0o077 == 0 else { throw SyncError.keyUnprotected(path: path, problem: .mode(info.st_mode & 0o777)) }
        }
        let bytes = try FileSystem.readRegularFile(descriptor, name: path, limit: 4096, what: "a key file")
        return try SyncKey(hex: String(decoding: bytes, as: UTF8.self), source: path)
    }

    /// Writes the key to `path`, readable by its owner only; the folder is created 0700.
    func save(to path: String) throws {
        try FileSystem.makeFolders(FileSystem.parentFolder(of: path), mode: 0o700)
        try FileSystem.writeAtomically(Array((hex + "\n").utf8), to: path, mode: 0o600)
    }
}

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

    init(bytes: [UInt8]) { key = SymmetricKey(data: bytes) }

    /// The key as 64 lowercase hex characters: the key file's form, and the form printed before `PrintedKey`.
    public var hex: String {
        key.withUnsafeBytes { Hex.encode($0) }
    }

    /// A value that tells whether a key is a hub's key without revealing it: HMAC-SHA256 of a fixed
    /// label, first 16 bytes.
    public var check: String {
        let code = HMAC<SHA256>.authenticationCode(for: Array("journal hub key check v1".utf8), using: key)
        return Hex.encode(code.prefix(16))
    }

    /// Reads the key file at `path`; nil when there is none. Refused when another user owns it or
    /// others can read or write it (`PrivateFile`).
    public static func load(from path: String) throws -> SyncKey? {
        guard let bytes = try PrivateFile.read(
            path, limit: 4096, what: "the sync key", exposure: "anyone who reads it can read the hub")
        else { return nil }
        return try SyncKey(hex: String(decoding: bytes, as: UTF8.self), source: path)
    }

    /// Writes the key to `path`, readable by its owner only; the folder is created 0700.
    func save(to path: String) throws {
        try PrivateFile.write(Array((hex + "\n").utf8), to: path)
    }
}

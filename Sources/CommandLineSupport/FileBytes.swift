import JournalKit

import Glibc

/// Reading a whole file given on the command line, `-` meaning stdin, refused past `limit` bytes.
public enum FileBytes {
    public static func read(_ path: String, limit: Int, what: String) throws(FileReadError) -> [UInt8] {
        do {
            if path == "-" { return try FileSystem.readAll(STDIN_FILENO, name: "stdin", limit: limit, what: what) }
            return try FileSystem.readFile(path, limit: limit, what: what)
        } catch {
            throw FileReadError(path: path, reason: error.reason)
        }
    }
}

extension FileBytes {
    /// The key from `--key-file`: a file, or stdin; on a terminal, one pasted line after a prompt, so
    /// pressing Enter is enough (waiting for end-of-input would look like a hang).
    public static func readKey(_ source: String) throws(FileReadError) -> [UInt8] {
        guard source == "-", isatty(STDIN_FILENO) == 1 else { return try read(source, limit: 4096, what: "a key file") }
        Output.error("Paste the sync key (`journal sync key` prints it on a machine that syncs), then press Enter:")
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") { return line }
            guard line.count < 4096 else { throw FileReadError(path: "-", reason: "the line is longer than a key") }
            line.append(byte)
        }
    }
}

/// A file named on the command line that cannot be read.
public struct FileReadError: JournalFailure {
    public let path: String
    public let reason: String

    public var kind: FailureKind { .badData }
    public var description: String { "cannot read \(path == "-" ? "stdin" : path): \(reason)." }
}

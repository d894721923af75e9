import JournalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading a whole file given on the command line, `-` meaning stdin.
enum FileBytes {
    static func read(_ path: String) throws(FileReadError) -> [UInt8] {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, reason: String(cString: strerror(errno)))
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }
}

extension FileBytes {
    /// The key from `--key-file`: a file, or stdin; on a terminal, one pasted line after a prompt, so
    /// pressing Enter is enough (waiting for end-of-input would look like a hang).
    static func readKey(_ source: String) throws(FileReadError) -> [UInt8] {
        guard source == "-", isatty(STDIN_FILENO) == 1 else { return try read(source) }
        Output.error("Paste the sync key (`journal sync key` prints it on a machine that syncs), then press Enter:")
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") { return line }
            line.append(byte)
        }
    }
}

/// A file named on the command line that cannot be read.
struct FileReadError: JournalFailure {
    let path: String
    let reason: String

    var kind: FailureKind { .badData }
    var description: String { "cannot read \(path == "-" ? "stdin" : path): \(reason)." }
}

/// Questions about the file system the CLI asks before handing paths to the libraries.
enum FileSystemCheck {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

import JournalKit

import Glibc

/// Writing to stdout and stderr without buffering, so a failed write (a full disk under
/// `journal export > file`) is seen: the command then exits 1 instead of 0.
public enum StandardStreams {
    /// The error of the first write to stdout that failed, if one did.
    nonisolated(unsafe) public private(set) static var writeFailure: Int32?

    public static func write(_ text: String) {
        var bytes = text
        bytes.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count, writeFailure == nil {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written == 0 {
                    writeFailure = EIO
                } else if errno == EPIPE {
                    // The reader is gone (`journal sql ... | head -1`): nothing more is wanted.
                    Glibc.exit(0)
                } else if errno != EINTR {
                    writeFailure = errno
                }
            }
        }
    }

    /// One line on stderr.
    public static func writeError(_ text: String) {
        writeErrorText(text + "\n")
    }

    /// Text on stderr as it is (a progress line rewrites itself with a carriage return).
    public static func writeErrorText(_ text: String) {
        var message = text
        message.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }
}

/// Output that could not be written: whatever was shown (or exported) is incomplete.
public struct OutputError: JournalFailure {
    public let code: Int32

    public init(code: Int32) { self.code = code }

    public var kind: FailureKind { .failure }
    public var description: String {
        "could not write the output: \(String(cString: strerror(code))). What was written is incomplete."
    }
}

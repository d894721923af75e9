import JournalKit

import Glibc

/// Arguments as the program received them: text is kept as UTF-8, so an argument that is not UTF-8
/// (a note typed in another encoding) is refused, rather than silently becoming U+FFFD characters.
enum ArgumentText {
    /// Checks that there is a command line, all of it UTF-8.
    static func check() throws {
        // The Swift runtime reads the arguments from /proc/self/cmdline: without /proc there are none,
        // not even the program's name, and every parser would misread that.
        guard CommandLine.argc >= 1 else { throw CommandLineUnreadableError() }
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            if String(validating: bytes, as: UTF8.self) == nil {
                throw InvalidArgumentError(position: index, shown: String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}

/// No command line at all: /proc is not mounted.
struct CommandLineUnreadableError: JournalFailure {
    var kind: FailureKind { .setup }
    var description: String {
        "cannot read its command line: /proc is not mounted, and Swift programs read their arguments from "
            + "/proc/self/cmdline. Mount it (mount -t proc proc /proc) and run the command again; nothing was changed."
    }
}

/// An argument that is not UTF-8 text.
struct InvalidArgumentError: JournalFailure {
    let position: Int
    let shown: String

    var kind: FailureKind { .usage }
    var description: String {
        "argument \(position) ('\(shown)', as best it reads) is not UTF-8 text; the journal keeps text as UTF-8, so "
            + "give it in UTF-8. Nothing was changed."
    }
}

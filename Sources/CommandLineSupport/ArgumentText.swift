import JournalKit

import Glibc

/// Arguments as the program received them: text is kept as UTF-8, so an argument that is not UTF-8
/// (a note typed in another encoding) is refused, rather than silently becoming U+FFFD characters.
enum ArgumentText {
    static func checkIsUTF8() throws(InvalidArgumentError) {
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            if String(validating: bytes, as: UTF8.self) == nil {
                throw InvalidArgumentError(position: index, shown: String(decoding: bytes, as: UTF8.self))
            }
        }
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

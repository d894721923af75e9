import JournalKit

/// What the scanner knows of single bytes, and how its messages show the document's.
extension HealthXMLScanner {
    /// Printable ASCII that is neither `<` nor `&`: nothing to check in text or a value but its quote.
    static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "&")
    }

    static func isASCIINameByte(_ byte: UInt8) -> Bool {
        byte < 0x80 && isNameByte(byte)
    }

    func fail(_ problem: String) -> HealthXMLError { .malformed(line: line, problem) }

    /// Bytes of the document, as a message shows them: at most 80 characters, escaped.
    func quoted(_ bytes: ArraySlice<UInt8>) -> String {
        TerminalText.quoted(String(decoding: bytes, as: UTF8.self))
    }

    func shown(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "the byte \(hex(byte))"
    }

    func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// A letter, `_`, `:` or any byte of a non-ASCII character: what a name may start with.
    static func isNameStart(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (97...122).contains(lower) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (48...57).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}

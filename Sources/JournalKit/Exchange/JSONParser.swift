/// Parses JSON text (RFC 8259) into a `JSONValue`, keeping object keys in the order written. A syntax
/// error says on which line and column it is.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    static func parse(_ bytes: [UInt8]) throws(ImportFormatError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        let value = try parser.value()
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func value() throws(ImportFormatError) -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw failure("the JSON ends early") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("expected a JSON value")
        }
    }

    private mutating func object() throws(ImportFormatError) -> JSONValue {
        try enter()
        index += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard peek(UInt8(ascii: "\"")) else { throw failure("expected a key in quotes") }
            let key = try string()
            var seen = false
            for member in members where member.0 == key { seen = true }
            if seen { throw failure("the key \"\(key)\" appears twice") }
            skipSpace()
            guard peek(UInt8(ascii: ":")) else { throw failure("expected ':' after a key") }
            index += 1
            members.append((key, try value()))
            skipSpace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "}")) { index += 1; break }
            throw failure("expected ',' or '}'")
        }
        depth -= 1
        return .object(members)
    }

    private mutating func array() throws(ImportFormatError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipSpace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "]")) { index += 1; break }
            throw failure("expected ',' or ']'")
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func enter() throws(ImportFormatError) {
        depth += 1
        // Deep nesting is never a journal export, and unbounded recursion would overflow the stack.
        guard depth <= 64 else { throw failure("nested too deeply") }
    }

    private mutating func string() throws(ImportFormatError) -> String {
        index += 1
        var utf8: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(8)
                case UInt8(ascii: "f"): utf8.append(12)
                case UInt8(ascii: "n"): utf8.append(10)
                case UInt8(ascii: "r"): utf8.append(13)
                case UInt8(ascii: "t"): utf8.append(9)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard peek(UInt8(ascii: "\\")), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                            throw failure("a lone surrogate in \\u escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let character = Unicode.Scalar(scalar) else { throw failure("an invalid \\u escape") }
                    utf8.append(contentsOf: Array(String(Character(character)).utf8))
                default:
                    throw failure("an invalid escape in a string")
                }
            case 0..<0x20:
                throw failure("a control character in a string (escape it)")
            default:
                utf8.append(byte)
            }
        }
        throw failure("a string is never closed")
    }

    private mutating func hex4() throws(ImportFormatError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("a \\u escape needs four hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func number() throws(ImportFormatError) -> Double {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        let digitsStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard index > digitsStart else { throw failure("a number needs digits") }
        if bytes[digitsStart] == UInt8(ascii: "0"), index - digitsStart > 1 { throw failure("a number cannot start with 0") }
        if peek(UInt8(ascii: ".")) {
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > fractionStart else { throw failure("a number needs digits after '.'") }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            let exponentStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > exponentStart else { throw failure("a number needs digits in its exponent") }
        }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            throw failure("an unreadable number")
        }
        return number
    }

    private mutating func literal(_ word: StaticString) throws(ImportFormatError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count else { throw failure("expected \(word)") }
        for offset in 0..<expected.count where bytes[index + offset] != expected[offset] {
            throw failure("expected \(word)")
        }
        index += expected.count
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func skipSpace() {
        while index < bytes.count, [32, 9, 10, 13].contains(bytes[index]) { index += 1 }
    }

    private func failure(_ problem: String) -> ImportFormatError {
        var line = 1
        var column = 1
        var position = 0
        while position < min(index, bytes.count) {
            if bytes[position] == 10 { line += 1; column = 1 } else if bytes[position] & 0xC0 != 0x80 { column += 1 }
            position += 1
        }
        return ImportFormatError(location: "line \(line), column \(column)", problem: "not valid JSON: \(problem)")
    }
}

extension JSONValue {
    /// Parses JSON text; a syntax error says on which line and column.
    public static func parse(_ bytes: [UInt8]) throws(ImportFormatError) -> JSONValue {
        try JSONParser.parse(bytes)
    }
}

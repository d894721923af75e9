/// The events of an XML document, read from its bytes: enough of XML 1.0 for a server's answers (a
/// WebDAV PROPFIND's, an S3 listing's) (elements, attributes, character data with the five named and the numeric references,
/// CDATA; the declaration, comments, processing instructions and a DOCTYPE without an internal subset
/// skipped). Anything else is refused as malformed; nothing is fetched or expanded.
public struct XMLReader {
    public enum Event {
        case start(name: Substring, attributes: [(String, String)], empty: Bool)
        case text(String)
        case end(name: Substring)
    }

    /// More attributes on one element than any server writes: refused.
    public static let mostAttributes = 64

    private let bytes: [UInt8]
    private var index = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public mutating func next() throws(XMLMalformed) -> Event? {
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                return .text(try Self.decoded(bytes[start..<index]))
            }
            if starts(with: "<?") {
                try skip(past: "?>")
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<![CDATA[") {
                index += 9
                let start = index
                try skip(past: "]]>")
                return .text(String(decoding: bytes[start..<(index - 3)], as: UTF8.self))
            } else if starts(with: "<!") {
                // A DOCTYPE: one with an internal subset ([...]) could declare entities, and is refused.
                let start = index
                try skip(past: ">")
                if bytes[start..<index].contains(UInt8(ascii: "[")) { throw XMLMalformed(reason: "it declares a document type") }
            } else if starts(with: "</") {
                index += 2
                let name = try self.name()
                skipSpace()
                try expect(">")
                return .end(name: name)
            } else {
                index += 1
                let name = try self.name()
                var attributes: [(String, String)] = []
                while true {
                    skipSpace()
                    guard index < bytes.count else { throw XMLMalformed(reason: "it ends inside a tag") }
                    if starts(with: "/>") {
                        index += 2
                        return .start(name: name, attributes: attributes, empty: true)
                    }
                    if bytes[index] == UInt8(ascii: ">") {
                        index += 1
                        return .start(name: name, attributes: attributes, empty: false)
                    }
                    guard attributes.count < Self.mostAttributes else {
                        throw XMLMalformed(reason: "an element has more than \(Self.mostAttributes) attributes")
                    }
                    let key = try self.name()
                    skipSpace()
                    try expect("=")
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                        throw XMLMalformed(reason: "an attribute's value is not quoted")
                    }
                    let quote = bytes[index]
                    index += 1
                    let start = index
                    while index < bytes.count, bytes[index] != quote { index += 1 }
                    guard index < bytes.count else { throw XMLMalformed(reason: "it ends inside an attribute") }
                    attributes.append((String(key), try Self.decoded(bytes[start..<index])))
                    index += 1
                }
            }
        }
        return nil
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
        return true
    }

    private mutating func skip(past text: StaticString) throws(XMLMalformed) {
        while index < bytes.count {
            if starts(with: text) {
                index += text.utf8CodeUnitCount
                return
            }
            index += 1
        }
        throw XMLMalformed(reason: "it ends inside markup")
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(XMLMalformed) {
        guard index < bytes.count, bytes[index] == UInt8(character.value) else {
            throw XMLMalformed(reason: "\"\(character)\" was expected at byte \(index)")
        }
        index += 1
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// A name: anything up to space, `=`, `/`, `>`; never empty.
    private mutating func name() throws(XMLMalformed) -> Substring {
        let start = index
        while index < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "<")]
            .contains(bytes[index])
        {
            index += 1
        }
        guard index > start else { throw XMLMalformed(reason: "a tag has no name at byte \(start)") }
        return Substring(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    /// Character data with its references replaced.
    public static func decoded(_ raw: ArraySlice<UInt8>) throws(XMLMalformed) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var text = ""
        var rest = raw[...]
        while let amp = rest.firstIndex(of: UInt8(ascii: "&")) {
            text += String(decoding: rest[..<amp], as: UTF8.self)
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                throw XMLMalformed(reason: "a reference (&) is not ended")
            }
            let reference = String(decoding: rest[(amp + 1)..<semicolon], as: UTF8.self)
            switch reference {
            case "lt": text += "<"
            case "gt": text += ">"
            case "amp": text += "&"
            case "quot": text += "\""
            case "apos": text += "'"
            default:
                let number: UInt32? =
                    reference.hasPrefix("#x") ? UInt32(reference.dropFirst(2), radix: 16)
                    : reference.hasPrefix("#") ? UInt32(reference.dropFirst(), radix: 10) : nil
                guard let number, let scalar = Unicode.Scalar(number), number != 0 else {
                    throw XMLMalformed(reason: "&\(reference); is no reference XML has")
                }
                text.unicodeScalars.append(scalar)
            }
            rest = rest[(semicolon + 1)...]
        }
        return text + String(decoding: rest, as: UTF8.self)
    }
}

/// Why a server's XML answer was refused: it is not XML this reader takes.
public struct XMLMalformed: Error, Equatable {
    public let reason: String

    public init(reason: String) { self.reason = reason }
}

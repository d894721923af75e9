/// The first kilobyte of an export, which decides at once whether the rest is worth reading: it must
/// be UTF-8 (a UTF-8 byte order mark allowed), begin with "<" after any white space, and its XML
/// declaration, when it has one, must say version 1.x and UTF-8 or no encoding at all. Exports the
/// Health app writes are UTF-8; an export in another encoding is refused by the encoding's name,
/// whatever its bytes would mean in it (the same bytes read as UTF-7, say, can hide a DTD).
enum XMLDocumentStart {
    /// How much of the start is looked at: the whole of it, when the document is shorter.
    static let length = 1024

    /// How many bytes of byte order mark `head` begins with, for the scanner to pass over; throws
    /// what makes the document one the importer does not read. `isWhole` when nothing follows `head`.
    static func check(_ head: [UInt8], isWhole: Bool) throws(HealthXMLError) -> Int {
        if let encoding = otherEncoding(head) { throw .encoding(encoding) }
        let bom = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let first = head[bom...].firstIndex(where: { !isSpace($0) }) else {
            if isWhole { throw .notXML(head.count == bom ? "it is empty" : "it holds nothing but white space") }
            throw .notXML("its first kilobyte holds nothing but white space")
        }
        guard head[first] == UInt8(ascii: "<") else {
            let shown = head.prefix(4).map { byte in String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }
            throw .notXML("it begins with the bytes \(shown.joined(separator: " ")), where XML begins with <")
        }
        let declaration = Array(head[bom...])
        if isDeclaration(declaration) {
            if let encoding = try declaredEncoding(declaration, isWhole: isWhole), encoding.lowercased() != "utf-8" {
                throw .encoding(encoding)
            }
        }
        return bom
    }

    /// The encoding `head` is in, when its first bytes say it is not UTF-8 (XML 1.0, appendix F): a
    /// byte order mark of UTF-16 or UTF-32, "<?" in one of them, or "<?xm" in EBCDIC, whose
    /// declaration is then read through EBCDIC's invariant characters to name the code page.
    static func otherEncoding(_ head: [UInt8]) -> String? {
        let signatures: [([UInt8], String)] = [
            ([0x00, 0x00, 0xFE, 0xFF], "UTF-32"), ([0xFF, 0xFE, 0x00, 0x00], "UTF-32"), ([0xFE, 0xFF], "UTF-16"),
            ([0xFF, 0xFE], "UTF-16"), ([0x00, 0x00, 0x00, 0x3C], "UTF-32"), ([0x3C, 0x00, 0x00, 0x00], "UTF-32"),
            ([0x00, 0x3C, 0x00, 0x3F], "UTF-16"), ([0x3C, 0x00, 0x3F, 0x00], "UTF-16"),
        ]
        if let (_, name) = signatures.first(where: { head.starts(with: $0.0) }) { return name }
        guard head.starts(with: [0x4C, 0x6F, 0xA7, 0x94]) else { return nil }
        var translated: [UInt8] = []
        for byte in head {
            guard let ascii = ebcdicInvariant(byte) else { break }
            translated.append(ascii)
        }
        guard isDeclaration(translated), let named = try? declaredEncoding(translated, isWhole: true),
            named.lowercased() != "utf-8"
        else { return "EBCDIC" }
        return named
    }

    /// True when `bytes` begin with an XML declaration: "<?xml" and white space.
    static func isDeclaration(_ bytes: [UInt8]) -> Bool {
        bytes.count > 5 && bytes.starts(with: Array("<?xml".utf8)) && isSpace(bytes[5])
    }

    /// The encoding an XML declaration at the start of `bytes` names, nil when it names none; throws
    /// when it is not a declaration of XML 1.x with its pseudo-attributes in their order.
    static func declaredEncoding(_ bytes: [UInt8], isWhole: Bool) throws(HealthXMLError) -> String? {
        var end = 5
        while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) { end += 1 }
        guard end + 1 < bytes.count else {
            let problem = isWhole ? "the XML declaration is never closed" : "the XML declaration does not end in the first kilobyte"
            throw .malformed(line: 1, problem)
        }
        let wrong = HealthXMLError.malformed(line: 1, "the XML declaration is not <?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        var fields: [(name: String, value: String)] = []
        var index = 5
        func skipSpace() { while index < end, isSpace(bytes[index]) { index += 1 } }
        while true {
            skipSpace()
            guard index < end else { break }
            let nameStart = index
            while index < end, (97...122).contains(bytes[index]) { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            skipSpace()
            guard index < end, bytes[index] == UInt8(ascii: "=") else { throw wrong }
            index += 1
            skipSpace()
            guard index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'"),
                let close = bytes[(index + 1)..<end].firstIndex(of: bytes[index])
            else { throw wrong }
            fields.append((name, String(decoding: bytes[(index + 1)..<close], as: UTF8.self)))
            index = close + 1
        }
        let orders = [["version"], ["version", "encoding"], ["version", "standalone"], ["version", "encoding", "standalone"]]
        let version = fields.first?.value.utf8 ?? "".utf8
        guard orders.contains(fields.map(\.name)), version.count > 2, version.starts(with: "1.".utf8),
            version.dropFirst(2).allSatisfy({ (48...57).contains($0) })
        else { throw wrong }
        return fields.first { $0.name == "encoding" }?.value
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// The ASCII of an EBCDIC byte that is the same character in every EBCDIC code page: letters,
    /// digits and the punctuation of an XML declaration; nil for any other.
    static func ebcdicInvariant(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x81...0x89: return byte - 0x81 + 97
        case 0x91...0x99: return byte - 0x91 + 106
        case 0xA2...0xA9: return byte - 0xA2 + 115
        case 0xC1...0xC9: return byte - 0xC1 + 65
        case 0xD1...0xD9: return byte - 0xD1 + 74
        case 0xE2...0xE9: return byte - 0xE2 + 83
        case 0xF0...0xF9: return byte - 0xF0 + 48
        case 0x40: return 0x20
        case 0x4B: return UInt8(ascii: ".")
        case 0x4C: return UInt8(ascii: "<")
        case 0x60: return UInt8(ascii: "-")
        case 0x6D: return UInt8(ascii: "_")
        case 0x6E: return UInt8(ascii: ">")
        case 0x6F: return UInt8(ascii: "?")
        case 0x7D: return UInt8(ascii: "'")
        case 0x7E: return UInt8(ascii: "=")
        case 0x7F: return UInt8(ascii: "\"")
        default: return nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}

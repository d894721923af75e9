/// RFC 4180 CSV: fields quoted when they hold a comma, a quote or a line break.
public enum CSV {
    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The records of `text`, each with the line it starts on (1-based).
    static func records(_ text: String) throws(ImportFormatError) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var afterQuote = false
        var line = 1
        var recordLine = 1
        var characters = text.unicodeScalars.makeIterator()
        var pending = characters.next()
        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
            fields = []
            field = ""
        }
        while let scalar = pending {
            pending = characters.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = characters.next()
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !afterQuote:
                quoted = true
            case ",":
                fields.append(field)
                field = ""
                afterQuote = false
            case "\r" where pending == "\n":
                continue
            case "\n", "\r":
                endRecord()
                afterQuote = false
                line += 1
                recordLine = line
            default:
                guard !afterQuote else {
                    throw ImportFormatError(location: "line \(line)", problem: "text after a closing quote")
                }
                field.unicodeScalars.append(scalar)
            }
        }
        if quoted { throw ImportFormatError(location: "line \(recordLine)", problem: "a quote is never closed") }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}

extension String {
    func replacingOccurrences(of target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}

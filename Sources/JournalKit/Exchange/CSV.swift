/// RFC 4180 CSV: fields quoted when they hold a comma, a quote or a line break; every record, the
/// last one too, ends with CRLF, so a file cut short shows.
///
/// Text that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return, as OWASP lists them) is written with a `'` before it, which spreadsheets show as
/// text; so is text that itself starts with `'`, so that reading takes exactly one off and gets the
/// text back as it was.
public enum CSV {
    /// One record. `text` tells which fields are text (and may need the formula guard); numbers are
    /// written as they are. On a terminal, what would act on it is shown escaped instead.
    public static func line(_ fields: [String], text: [Bool]? = nil, forTerminal: Bool = false) -> String {
        var written: [String] = []
        written.reserveCapacity(fields.count)
        for index in 0..<fields.count {
            var value = fields[index]
            if text?[index] ?? true { value = guarded(value) }
            if forTerminal { value = TerminalText.escaped(value) }
            written.append(field(value))
        }
        return written.joined(separator: ",") + "\r\n"
    }

    static func field(_ text: String) -> String {
        // By scalars: "\r\n" is one Character, equal to neither "\n" nor "\r".
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The text with the formula guard added where a spreadsheet needs it.
    static func guarded(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r'".unicodeScalars.contains(first) else { return text }
        return "'" + text
    }

    /// Text as it was before `guarded`.
    static func unguarded(_ text: String) -> String {
        text.hasPrefix("'") ? String(text.dropFirst()) : text
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
        // An export ends every record with a line break: a last record without one was cut short.
        if !field.isEmpty || !fields.isEmpty {
            throw ImportFormatError(
                location: "line \(recordLine)", problem: "the file ends in the middle of a record (was it cut short?)")
        }
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

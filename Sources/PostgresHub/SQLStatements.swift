/// A migration file split into its statements, as the server would split it: at the semicolons that
/// end statements, not at those inside a string ('...', with '' for a quote), a quoted identifier
/// ("..."), a dollar-quoted body of any tag ($$...$$, $body$...$body$), a line comment (-- ...) or a
/// block comment (/* ... */, which nest). PostgresNIO sends one statement per message (even its
/// `simpleQuery`), so a file is sent statement by statement.
enum SQLStatements {
    static func split(_ sql: String) -> [String] {
        let text = Array(sql.unicodeScalars)
        var statements: [String] = []
        var start = 0
        var index = 0
        func next(_ offset: Int = 1) -> Unicode.Scalar? { index + offset < text.count ? text[index + offset] : nil }
        func keep(upTo end: Int) {
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: text[start..<end])
            let statement = String(scalars).trimmingSpaces
            if !statement.isEmpty && !isComment(statement) { statements.append(statement) }
        }
        while index < text.count {
            let scalar = text[index]
            if scalar == "'" || scalar == "\"" {
                // To the closing quote; a doubled one is a quote inside.
                index += 1
                while index < text.count && !(text[index] == scalar && next() != scalar) {
                    index += text[index] == scalar ? 2 : 1
                }
                index += 1
            } else if scalar == "-" && next() == "-" {
                while index < text.count && text[index] != "\n" { index += 1 }
            } else if scalar == "/" && next() == "*" {
                var depth = 0
                repeat {
                    if text[index] == "/" && next() == "*" {
                        depth += 1
                        index += 2
                    } else if text[index] == "*" && next() == "/" {
                        depth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                } while depth > 0 && index < text.count
            } else if scalar == "$", let tag = dollarTag(text, at: index) {
                index += tag.count
                while index < text.count && !text[index...].starts(with: tag) { index += 1 }
                index += tag.count
            } else if scalar == ";" {
                keep(upTo: index)
                index += 1
                start = index
            } else {
                index += 1
            }
        }
        keep(upTo: text.count)
        return statements
    }

    /// The `$tag$` that starts at `index` (a tag of letters, digits and underscores not starting with a
    /// digit, or none), or nil: `$1` is a parameter, not a quote.
    private static func dollarTag(_ text: [Unicode.Scalar], at index: Int) -> ArraySlice<Unicode.Scalar>? {
        var end = index + 1
        while end < text.count, text[end] == "_" || text[end].properties.isAlphabetic || ("0"..."9").contains(text[end]) {
            end += 1
        }
        guard end < text.count, text[end] == "$" else { return nil }
        if end > index + 1, ("0"..."9").contains(text[index + 1]) { return nil }
        return text[index...end]
    }

    /// True for what is only line comments (what may follow a file's last statement).
    private static func isComment(_ text: String) -> Bool {
        text.split(separator: "\n").allSatisfy { $0.trimmingSpaces.isEmpty || $0.trimmingSpaces.hasPrefix("--") }
    }
}

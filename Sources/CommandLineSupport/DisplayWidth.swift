import CLinux

/// How many terminal columns text takes: East Asian wide and full-width characters two, combining
/// marks none (glibc's `wcwidth` under its C.UTF-8 locale, `journal_display_width`), so that tables
/// line up whatever the script. ASCII is counted without it.
public enum DisplayWidth {
    /// The columns `text` takes. A character is as wide as its widest scalar: a letter with
    /// combining accents is one column, an emoji sequence joined by zero-width joiners two.
    public static func of(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    /// The columns one character takes.
    public static func of(_ character: Character) -> Int {
        if character.isASCII { return 1 }
        var widest = 0
        for scalar in character.unicodeScalars { widest = max(widest, Int(journal_display_width(scalar.value))) }
        return widest
    }

    /// `text` cut to at most `columns` columns, at a character boundary, with `…` at the end when
    /// anything was cut.
    public static func cut(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var kept = ""
        var width = 0
        for character in text {
            let next = of(character)
            if width + next > columns - 1 { break }
            kept.append(character)
            width += next
        }
        return kept + "…"
    }

    /// `text` in lines of at most `columns` columns, broken between words, each line after the
    /// first starting with `indent`; a word longer than a line is cut where the line ends. Without
    /// `columns` (not a terminal), the text as it is.
    public static func wrapped(_ text: String, to columns: Int?, indent: String = "") -> [String] {
        guard let columns, visible(text) > columns else { return [text] }
        var lines: [String] = []
        // The first line keeps its own indent ("  x 0.58" under "Half-life"); the others take `indent`.
        let lead = text.prefix { $0 == " " }
        var line = String(lead)
        var bare = true
        for word in unbreakable(text.dropFirst(lead.count).split(separator: " ", omittingEmptySubsequences: false)) {
            let candidate = bare ? line + word : line + " " + word
            // A word no line holds whole starts where it is, to be broken below.
            if visible(candidate) <= columns || bare || visible(indent + word) > columns {
                line = candidate
                bare = false
            } else {
                lines.append(line)
                line = indent + word
            }
            // A word wider than a whole line (a note in a script without spaces, a link) is broken
            // between characters, not cut.
            while visible(line) > columns, let (head, tail) = broken(line, at: columns), !tail.isEmpty {
                lines.append(head)
                line = indent + tail
            }
        }
        lines.append(line)
        return lines.map { visible($0) > columns ? cut($0, to: columns) : $0 }
    }

    /// `line` parted at the last character boundary within `columns` (colour codes taking none), when
    /// one is past what it must keep: its indent and one character.
    static func broken(_ line: String, at columns: Int) -> (String, String)? {
        guard visible(line) > columns else { return nil }
        var width = 0
        var kept = 0
        var cut: Int?
        eachShown(line) { offset, character in
            let next = of(character)
            if width + next > columns, kept > 0, character != " " || width > 0 {
                cut = offset
                return false
            }
            width += next
            if character != " " { kept += 1 }
            return true
        }
        guard let cut else { return nil }
        let head = String(line.prefix(cut))
        return head.allSatisfy({ $0 == " " }) ? nil : (head, String(line.dropFirst(cut)))
    }

    /// The units a number is never parted from at the end of a line ("2.9 h)", "50 mg").
    static let units: Set<Substring> = ["mg", "mg/L", "h", "min", "s", "ms", "ml", "g", "kg", "L", "%", "cups", "cup"]

    /// `words` with each unit joined to the number before it, as one word to wrap.
    static func unbreakable(_ words: [Substring]) -> [Substring] {
        var joined: [Substring] = []
        for word in words {
            let unit = word.prefix { !",.;:)".contains($0) }
            if let last = joined.last, lastVisible(last)?.isNumber == true, units.contains(unit) {
                joined[joined.count - 1] = Substring(String(last) + " " + String(word))
            } else {
                joined.append(word)
            }
        }
        return joined
    }

    /// The last character of `word` a terminal shows, past its colour codes.
    private static func lastVisible(_ word: Substring) -> Character? {
        var shown: Character?
        eachShown(String(word)) { _, character in
            shown = character
            return true
        }
        return shown
    }

    /// Calls `body` with each character of `text` a terminal shows, and its offset in `text`, its
    /// colour codes (`ESC [ ... m`) passed over, until `body` returns false: one reading of them for
    /// measuring, breaking and joining.
    private static func eachShown(_ text: String, _ body: (Int, Character) -> Bool) {
        var inEscape = false
        for (offset, character) in text.enumerated() {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else if !body(offset, character) {
                return
            }
        }
    }

    /// The columns `text` takes on a terminal, its colour codes (`ESC [ ... m`) taking none.
    public static func visible(_ text: String) -> Int {
        guard text.utf8.contains(0x1B) else { return of(text) }
        var width = 0
        eachShown(text) { _, character in
            width += of(character)
            return true
        }
        return width
    }
}

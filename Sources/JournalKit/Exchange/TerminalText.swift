/// Text that came from a person or another device, made safe to show on a terminal: control
/// characters (which can clear the screen, retitle the window, write the clipboard, or forge a line)
/// and bidirectional overrides (which can make text read other than it is) are shown as visible
/// escapes instead of acting. The stored text is never changed; only what is shown.
public enum TerminalText {
    /// `text` with every character that could act on a terminal written as an escape: `\n`, `\t`,
    /// `\e`, `\u{202E}`. A backslash stays as it is.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: acts) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            guard acts(scalar) else {
                shown.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": shown += "\\n"
            case "\t": shown += "\\t"
            case "\r": shown += "\\r"
            case "\u{1B}": shown += "\\e"
            default: shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return shown
    }

    /// The most of a quoted value a message shows.
    public static let quoteLimit = 80

    /// `text` as a message quotes it: its first 80 characters (and an ellipsis when there are more),
    /// escaped. A value from a file can be megabytes long; a message needs only to recognise it.
    public static func quoted(_ text: some StringProtocol) -> String {
        let shown = text.prefix(quoteLimit)
        return escaped(String(shown)) + (shown.endIndex == text.endIndex ? "" : "…")
    }

    /// Like `escaped`, but keeping line breaks: for messages whose lines are the program's own.
    public static func escapedKeepingLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
    }

    /// True for a character that does something on a terminal rather than show: C0 and C1 controls,
    /// DEL, and the invisible formatting characters that reorder or hide text.
    public static func acts(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        // Bidirectional marks, embeddings, overrides and isolates; zero-width characters; line and
        // paragraph separators; the byte order mark.
        case 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF: return true
        default: return false
        }
    }
}

import JournalKit

import CLinux
import Glibc

/// Writing to stdout and stderr, with colour only for a terminal and never under NO_COLOR.
public enum Output {
    public static func line(_ text: String, terminator: String = "\n") {
        StandardStreams.write(text + terminator)
    }

    public static func error(_ text: String) {
        StandardStreams.writeError(text)
    }

    public static let useColour: Bool = {
        guard isatty(STDOUT_FILENO) == 1 else { return false }
        if let noColour = JournalPaths.environment("NO_COLOR"), !noColour.isEmpty { return false }
        return JournalPaths.environment("TERM") != "dumb"
    }()

    public static func bold(_ text: String) -> String { useColour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    public static func dim(_ text: String) -> String { useColour ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    public static func cyan(_ text: String) -> String { useColour ? "\u{1B}[36m\(text)\u{1B}[0m" : text }
    public static func yellow(_ text: String) -> String { useColour ? "\u{1B}[33m\(text)\u{1B}[0m" : text }
    public static func red(_ text: String) -> String { useColour ? "\u{1B}[31m\(text)\u{1B}[0m" : text }

    /// True when stdout is a terminal (colour aside): where charts are drawn.
    public static let isTerminal: Bool = isatty(STDOUT_FILENO) == 1

    /// The columns of the terminal stdout is; nil when it is none, or does not say.
    public static let terminalColumns: Int? = {
        guard isTerminal else { return nil }
        let columns = Int(journal_terminal_columns(STDOUT_FILENO))
        return columns > 0 ? columns : nil
    }()

    /// The columns a line drawn on the terminal may take: its width less the last column (a line
    /// that fills it makes some terminals wrap); nil when stdout is no terminal.
    public static var lineColumns: Int? { terminalColumns.map { max(20, $0 - 1) } }

    /// Writes `text` in lines that fit the terminal, broken between words, the lines after the first
    /// indented by `indent`: as it is on a pipe.
    public static func paragraph(_ text: String, indent: String = "") {
        for line in DisplayWidth.wrapped(text, to: lineColumns, indent: indent) { Output.line(line) }
    }

    /// A line of a status: a label padded to 14 columns, and what follows wrapped under it.
    public static func labelled(_ text: String) {
        paragraph(text, indent: String(repeating: " ", count: 14))
    }

    /// A table with its header dimmed.
    public static func table(_ header: [String], _ rows: [[String]]) -> String {
        let layout = TableLayout(header: header, rows: rows)
        var text = dim(layout.line(header))
        for row in rows { text += "\n" + layout.line(row) }
        return text
    }

    /// A drink on one line, for what a command just did: "espresso 64 mg at 2026-11-21 08:30 (id 3f2a1b4c)".
    public static func describe(_ drink: Drink) -> String {
        var text = "\(TerminalText.escaped(drink.kind)) \(formatMilligrams(drink.caffeineMg)) mg at \(LocalTime.display(drink.consumedAt))"
        if let note = drink.note { text += " \u{2014} \(TerminalText.escaped(note))" }
        return text + " (id \(drink.id.short))"
    }
}

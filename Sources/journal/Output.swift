import JournalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writing to stdout and stderr, with colour only for a terminal and never under NO_COLOR.
enum Output {
    static func line(_ text: String, terminator: String = "\n") {
        print(text, terminator: terminator)
    }

    static func error(_ text: String) {
        var message = text + "\n"
        message.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    static let useColour: Bool = {
        guard isatty(STDOUT_FILENO) == 1 else { return false }
        if let noColour = JournalPaths.environment("NO_COLOR"), !noColour.isEmpty { return false }
        return JournalPaths.environment("TERM") != "dumb"
    }()

    static func bold(_ text: String) -> String { useColour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    static func dim(_ text: String) -> String { useColour ? "\u{1B}[2m\(text)\u{1B}[0m" : text }

    /// Columns padded to line up; the last column is not padded.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.enumerated().map { index, row in
            let text = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
            let trimmed = String(text.reversed().drop(while: { $0 == " " }).reversed())
            return index == 0 ? dim(trimmed) : trimmed
        }.joined(separator: "\n")
    }

    /// A drink on one line, for what a command just did: "espresso 64 mg at 2026-11-21 08:30 (id 3f2a1b4c)".
    static func describe(_ drink: Drink) -> String {
        var text = "\(drink.kind) \(formatMilligrams(drink.caffeineMg)) mg at \(LocalTime.display(drink.consumedAt))"
        if let note = drink.note { text += " \u{2014} \(note)" }
        return text + " (id \(drink.id.short))"
    }
}

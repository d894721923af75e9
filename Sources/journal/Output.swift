import CommandLineSupport
import JournalKit

import Glibc

/// Writing to stdout and stderr, with colour only for a terminal and never under NO_COLOR.
enum Output {
    static func line(_ text: String, terminator: String = "\n") {
        StandardStreams.write(text + terminator)
    }

    static func error(_ text: String) {
        StandardStreams.writeError(text)
    }

    static let useColour: Bool = {
        guard isatty(STDOUT_FILENO) == 1 else { return false }
        if let noColour = JournalPaths.environment("NO_COLOR"), !noColour.isEmpty { return false }
        return JournalPaths.environment("TERM") != "dumb"
    }()

    static func bold(_ text: String) -> String { useColour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    static func dim(_ text: String) -> String { useColour ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    static func cyan(_ text: String) -> String { useColour ? "\u{1B}[36m\(text)\u{1B}[0m" : text }
    static func yellow(_ text: String) -> String { useColour ? "\u{1B}[33m\(text)\u{1B}[0m" : text }
    static func red(_ text: String) -> String { useColour ? "\u{1B}[31m\(text)\u{1B}[0m" : text }

    /// True when stdout is a terminal (colour aside): where charts are drawn.
    static let isTerminal: Bool = isatty(STDOUT_FILENO) == 1

    /// Columns padded to line up; a row ends at its last non-empty cell, without trailing spaces.
    /// Plain loops on purpose: each generic sequence adapter costs a runtime type lookup at start-up.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        var widths = [Int](repeating: 0, count: header.count)
        var counts: [[Int]] = []
        counts.reserveCapacity(rows.count + 1)
        for row in [header] + rows {
            var rowCounts: [Int] = []
            rowCounts.reserveCapacity(row.count)
            for column in 0..<row.count {
                let count = row[column].count
                rowCounts.append(count)
                if count > widths[column] { widths[column] = count }
            }
            counts.append(rowCounts)
        }
        var text = ""
        var index = 0
        for row in [header] + rows {
            var last = row.count - 1
            while last > 0 && row[last].isEmpty { last -= 1 }
            var line = ""
            for column in 0...max(last, 0) {
                line += row[column]
                if column < last {
                    line += String(repeating: " ", count: widths[column] - counts[index][column] + 2)
                }
            }
            if index > 0 { text += "\n" }
            text += index == 0 ? dim(line) : line
            index += 1
        }
        return text
    }

    /// A drink on one line, for what a command just did: "espresso 64 mg at 2026-11-21 08:30 (id 3f2a1b4c)".
    static func describe(_ drink: Drink) -> String {
        var text = "\(drink.kind) \(formatMilligrams(drink.caffeineMg)) mg at \(LocalTime.display(drink.consumedAt))"
        if let note = drink.note { text += " \u{2014} \(note)" }
        return text + " (id \(drink.id.short))"
    }
}

import JournalKit

/// Columns padded to line up, two spaces apart; a row ends at its last non-empty cell, without
/// trailing spaces. Cells are shown with anything that would act on a terminal escaped.
public struct TableLayout {
    private(set) var widths: [Int]

    /// The widths that fit `header` and `rows`. Plain loops on purpose: each generic sequence adapter
    /// costs a runtime type lookup at start-up.
    public init(header: [String], rows: [[String]]) {
        widths = [Int](repeating: 0, count: header.count)
        fit(header)
        for row in rows { fit(row) }
    }

    private mutating func fit(_ cells: [String]) {
        for column in 0..<min(cells.count, widths.count) {
            let count = TerminalText.escaped(cells[column]).count
            if count > widths[column] { widths[column] = count }
        }
    }

    /// One row; a cell wider than its column (a row after the ones the widths were fitted to) pushes
    /// the rest of its row right.
    public func line(_ cells: [String]) -> String {
        var last = cells.count - 1
        while last > 0 && cells[last].isEmpty { last -= 1 }
        var line = ""
        for column in 0...max(last, 0) where column < cells.count {
            let cell = TerminalText.escaped(cells[column])
            line += cell
            if column < last {
                line += String(repeating: " ", count: max(widths[column] - cell.count, 0) + 2)
            }
        }
        return line
    }
}

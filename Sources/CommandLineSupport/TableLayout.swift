import JournalKit

/// Columns padded to line up, two spaces apart, by the columns each cell takes on a terminal
/// (`DisplayWidth`: 抹茶 is four, é one); a row ends at its last non-empty cell, without trailing
/// spaces. Cells are shown with anything that would act on a terminal escaped. On a terminal, a line
/// wider than it wraps its last cell under itself (a note), or is cut at a character boundary with `…`
/// where too little is left beside the other cells, rather than wrapped across the table.
public struct TableLayout {
    private(set) var widths: [Int]
    /// The columns a line may take; nil for no limit (output to a pipe or a file is never cut).
    let lineWidth: Int?

    /// The widths that fit `header` and `rows`. Plain loops on purpose: each generic sequence adapter
    /// costs a runtime type lookup at start-up.
    public init(header: [String], rows: [[String]], lineWidth: Int? = Output.terminalColumns) {
        widths = [Int](repeating: 0, count: header.count)
        self.lineWidth = lineWidth
        fit(header)
        for row in rows { fit(row) }
    }

    private mutating func fit(_ cells: [String]) {
        for column in 0..<min(cells.count, widths.count) {
            let width = DisplayWidth.of(TerminalText.escaped(cells[column]))
            if width > widths[column] { widths[column] = width }
        }
    }

    /// One row; a cell wider than its column (a row after the ones the widths were fitted to) pushes
    /// the rest of its row right.
    public func line(_ cells: [String]) -> String {
        var last = cells.count - 1
        while last > 0 && cells[last].isEmpty { last -= 1 }
        var line = ""
        var beforeLast = ""
        for column in 0...max(last, 0) where column < cells.count {
            let cell = TerminalText.escaped(cells[column])
            if column == last { beforeLast = line }
            line += cell
            if column < last {
                line += String(repeating: " ", count: max(widths[column] - DisplayWidth.of(cell), 0) + 2)
            }
        }
        guard let lineWidth, DisplayWidth.visible(line) > lineWidth else { return line }
        // The last cell (a note) wraps under itself when words fit beside the other cells; else it
        // goes under the row, from the second column on, wrapped there. Only the one cell of a row
        // that is too wide for even that is cut.
        let start = DisplayWidth.visible(beforeLast)
        guard last > 0 else { return DisplayWidth.cut(line, to: lineWidth) }
        if lineWidth - start >= Self.narrowestWrappedCell {
            return DisplayWidth.wrapped(line, to: lineWidth, indent: String(repeating: " ", count: start)).joined(separator: "\n")
        }
        let under = String(repeating: " ", count: min(widths[0] + 2, lineWidth / 2))
        let cell = TerminalText.escaped(cells[last])
        return ([DisplayWidth.cut(beforeLast.trimmingTrailingSpaces, to: lineWidth)]
            + DisplayWidth.wrapped(under + cell, to: lineWidth, indent: under)).joined(separator: "\n")
    }

    /// The fewest columns a last cell wraps in, rather than being cut.
    static let narrowestWrappedCell = 12
}

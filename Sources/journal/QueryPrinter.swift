import CommandLineSupport
import JournalKit

/// Prints what `journal sql` returns as it comes, row by row: as an aligned table (its columns sized
/// by the first rows), as CSV, or as JSON (one array of objects, or an array of them for several
/// statements). Text is shown escaped on a terminal; CSV is guarded against spreadsheet formulas.
struct QueryPrinter {
    let format: SQL.Format
    private var columns: [String] = []
    /// Table rows held until the columns can be sized.
    private var pending: [[String]] = []
    private var layout: TableLayout?
    private var results = 0
    private var resultIndex = 0
    private var rowsInResult = 0

    /// Rows that size a table's columns; later rows are printed at once.
    static let sizingRows = 1000

    init(format: SQL.Format) { self.format = format }

    mutating func take(_ event: UserSQL.Event) {
        switch event {
        case .begin(let count):
            results = count
            if format == .json && count > 1 { Output.line("[", terminator: "") }
        case .columns(let names):
            endResult()
            columns = names
            resultIndex += 1
            rowsInResult = 0
            switch format {
            case .csv: Output.line(CSV.line(names, forTerminal: Output.isTerminal), terminator: "")
            case .json:
                if resultIndex > 1 { Output.line(",", terminator: "") }
                Output.line("[", terminator: "")
            case .table:
                if resultIndex > 1 { Output.line("") }
            }
        case .row(let values):
            rowsInResult += 1
            switch format {
            case .csv:
                Output.line(CSV.line(values.map(Self.text), text: values.map(Self.isText), forTerminal: Output.isTerminal), terminator: "")
            case .json:
                let object = JSONValue.object((0..<columns.count).map { (columns[$0], Self.json(values[$0])) })
                Output.line((rowsInResult > 1 ? ",\n  " : "\n  ") + object.text, terminator: "")
            case .table:
                let cells = values.map(Self.text)
                if let layout {
                    Output.line(layout.line(cells))
                } else {
                    pending.append(cells)
                    if pending.count >= Self.sizingRows { flushTable() }
                }
            }
        }
    }

    mutating func finish() {
        endResult()
        if format == .json && results > 1 { Output.line("]") }
    }

    private mutating func endResult() {
        guard resultIndex > 0 else { return }
        switch format {
        case .json: Output.line(rowsInResult > 0 ? "\n]" : "]", terminator: results > 1 ? "" : "\n")
        case .table: if layout == nil { flushTable() }
        case .csv: break
        }
        layout = nil
    }

    private mutating func flushTable() {
        let sized = TableLayout(header: columns, rows: pending)
        Output.line(Output.dim(sized.line(columns)))
        for row in pending { Output.line(sized.line(row)) }
        pending = []
        layout = sized
    }

    static func text(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let number): return String(number)
        case .real(let number): return JSONValue.format(number)
        case .text(let text): return text
        case .blob(let bytes): return "x'" + Hex.encode(bytes) + "'"
        }
    }

    /// Only text can be a formula; numbers are written as they are.
    static func isText(_ value: SQLiteValue) -> Bool {
        if case .text = value { return true }
        return false
    }

    static func json(_ value: SQLiteValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .real(let number): return .number(number)
        case .text(let text): return .string(text)
        case .blob: return .string(text(value))
        }
    }
}

import ArgumentParser
import JournalKit

struct SQL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Run read-only SQL over the journal.",
        discussion: """
            Views: history (live drinks with local times), daily_totals (day, drinks, caffeine_mg).
            Tables: drinks (times in UTC Unix milliseconds; deleted = 1 rows are tombstones), meta.
            Example: journal sql "select day, caffeine_mg from daily_totals order by day desc limit 7"
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, csv, json
    }

    @Argument(help: "The SQL; anything that would write is refused.")
    var query: String

    @Option(name: .long, help: "table, csv or json.")
    var format: Format = .table

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let store = try await global.openStore()
        let results = try await store.readOnlyQuery(query)
        switch format {
        case .json:
            let arrays = results.map { result in
                JSONValue.array(result.rows.map { row in
                    .object(zip(result.columns, row).map { ($0, Self.json($1)) })
                })
            }
            Output.line((arrays.count == 1 ? arrays[0] : .array(arrays)).prettyText)
        case .csv:
            for result in results {
                Output.line(CSV.line(result.columns) + result.rows.map { CSV.line($0.map(Self.text)) }.joined(), terminator: "")
            }
        case .table:
            Output.line(results.map { Output.table($0.columns, $0.rows.map { $0.map(Self.text) }) }.joined(separator: "\n\n"))
        }
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

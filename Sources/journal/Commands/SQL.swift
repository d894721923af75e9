import ArgumentParser
import CommandLineSupport
import JournalKit

struct SQL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Run read-only SQL over the journal.",
        discussion: """
            Views: history (live drinks with local times), daily_totals (day, drinks, caffeine_mg). \
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
        // Opening the store first makes (or brings up to date) the journal the SQL reads.
        let path = try await global.openStore().path
        var printer = QueryPrinter(format: format)
        try UserSQL.run(query, on: path) { printer.take($0) }
        printer.finish()
    }
}

import ArgumentParser
import JournalKit

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "How much caffeine is in you now, and today's intake.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let store = try await global.openStore()
        let status = try await store.status()
        if output.json {
            Output.line(JSONValue.object([
                ("at", .string(LocalTime.iso8601(status.at))),
                ("current_mg", .number(rounded(status.currentMg))),
                ("today_mg", .number(rounded(status.todayMg))),
                ("cups_today", .number(rounded(status.cupsToday))),
                ("drinks_today", .number(Double(status.drinksToday))),
            ]).prettyText)
            return
        }
        let drinks = status.drinksToday == 1 ? "1 drink" : "\(status.drinksToday) drinks"
        Output.line("Caffeine now  " + Output.bold("\(formatMilligrams(status.currentMg)) mg"))
        Output.line("Today         \(formatMilligrams(status.todayMg)) mg in \(drinks) (\(cups(status.cupsToday)) cups)")
    }

    private func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    private func cups(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

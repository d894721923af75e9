import ArgumentParser
import CommandLineSupport
import JournalKit

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the whole journal to stdout, as JSON or CSV; `journal import` reads it back.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, csv
    }

    @Option(name: .long, help: "json or csv.")
    var format: Format = .json

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let store = try await global.openStore()
        let drinks = try await store.drinks()
        let servings = try await store.customServings()
        switch format {
        case .json: Output.line(DrinkExchange.jsonArray(drinks, servings: servings), terminator: "")
        case .csv: Output.line(DrinkExchange.csv(drinks, servings: servings, forTerminal: Output.isTerminal), terminator: "")
        }
    }
}

import ArgumentParser
import JournalKit

struct Drinks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drinks", abstract: "The drinks `journal add` knows, with their caffeine.")

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let kinds = DrinkCatalog.builtIn.kinds
        if output.json {
            Output.line(JSONValue.array(kinds.map { kind in
                .object([
                    ("name", .string(kind.name)), ("caffeine_mg", .number(kind.caffeineMg)),
                    ("aliases", .array(kind.aliases.map { .string($0) })), ("source", .string(kind.source)),
                    ("custom", .bool(kind.isCustom)),
                ])
            }).prettyText)
            return
        }
        let rows = kinds.map { [$0.name, formatMilligrams($0.caffeineMg), $0.aliases.joined(separator: ", "), $0.source] }
        Output.line(Output.table(["DRINK", "MG", "ALSO", "SOURCE"], rows))
    }
}

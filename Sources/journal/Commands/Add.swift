import ArgumentParser
import CommandLineSupport
import JournalKit

struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Record a drink.",
        discussion: """
            TIME may be 08:30, 3pm, noon, yesterday 21:00, 30 min ago, 2 days ago 8am, last monday 9:00 or
            ISO 8601 (2026-11-21T08:30, with or without an offset). Default: now.
            """)

    @Argument(help: ArgumentHelp("A drink from `journal drinks`, such as espresso or \"double espresso\".", valueName: "drink"))
    var drink: [String]

    @OptionGroup var fields: DrinkFieldOptions
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let name = drink.joined(separator: " ")
        let mg = try fields.caffeine()
        let clock = try global.clock()
        let consumedAt = try fields.time(clock) ?? clock.now()
        let store = try await global.openStore(clock: clock)
        let kind = try await KindLookup.resolve(name, in: store)
        let added = try await store.add(
            NewDrink(kind: kind.name, caffeineMg: mg ?? kind.caffeineMg, consumedAt: consumedAt, note: fields.note))
        if output.json {
            Output.line(DrinkExchange.json(added).prettyText)
        } else {
            Output.line("Added " + Output.describe(added))
        }
    }
}

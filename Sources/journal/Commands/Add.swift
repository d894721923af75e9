import ArgumentParser
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

    @Option(name: .long, parsing: .unconditional, help: "Caffeine in mg, instead of the catalog's amount.")
    var mg: Double?

    @Option(name: .long, help: ArgumentHelp("When you had it.", valueName: "time"))
    var at: String?

    @Option(name: .long, help: "A note to keep with the drink.")
    var note: String?

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let name = drink.joined(separator: " ")
        if let mg { _ = try CaffeineDose.validated(mg) }
        let clock = try global.clock()
        let consumedAt = try at.map { try TimeExpression(now: clock.now()).parse($0) } ?? clock.now()
        let store = try await global.openStore(clock: clock)
        let kind = try await KindLookup.resolve(name, in: store)
        let mg = try CaffeineDose.validated(mg ?? kind.caffeineMg)
        let added = try await store.add(NewDrink(kind: kind.name, caffeineMg: mg, consumedAt: consumedAt, note: note))
        if output.json {
            Output.line(DrinkExchange.json(added).prettyText)
        } else {
            Output.line("Added " + Output.describe(added))
        }
    }
}

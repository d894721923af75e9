import ArgumentParser
import JournalKit

struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a drink.",
        discussion: "Changing --drink without --mg takes the new drink's caffeine. --note \"\" removes the note.")

    @Argument(help: ArgumentHelp("The id, or the start of it.", valueName: "id"))
    var id: String

    @Option(name: .long, help: "Another drink from `journal drinks`.")
    var drink: String?

    @Option(name: .long, parsing: .unconditional, help: "Caffeine in mg.")
    var mg: Double?

    @Option(name: .long, help: ArgumentHelp("When you had it.", valueName: "time"))
    var at: String?

    @Option(name: .long, help: "The note; \"\" removes it.")
    var note: String?

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if drink == nil, mg == nil, at == nil, note == nil {
            throw ValidationError("nothing to change: give --drink, --mg, --at or --note.")
        }
    }

    func run() async throws {
        if let mg { _ = try CaffeineDose.validated(mg) }
        let clock = try global.clock()
        let consumedAt = try at.map { try TimeExpression(now: clock.now()).parse($0) }
        let store = try await global.openStore(clock: clock)
        var kind: DrinkKind?
        if let drink { kind = try await KindLookup.resolve(drink, in: store) }
        let mg = try (mg ?? kind?.caffeineMg).map { try CaffeineDose.validated($0) }
        let target = try await store.drink(idPrefix: id)
        let edited = try await store.edit(
            target.id, DrinkEdit(kind: kind?.name, caffeineMg: mg, consumedAt: consumedAt, note: note))
        if output.json {
            Output.line(DrinkExchange.json(edited).prettyText)
        } else {
            Output.line((edited == target ? "Unchanged: " : "Changed ") + Output.describe(edited))
        }
    }
}

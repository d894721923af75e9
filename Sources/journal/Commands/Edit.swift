import ArgumentParser
import CommandLineSupport
import JournalKit

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a drink.",
        discussion: "Changing --drink without --mg takes the new drink's caffeine. --note \"\" removes the note.")

    @Argument(help: ArgumentHelp("The id, the start of it, or last (the latest drink).", valueName: "id"), completion: .custom(CompletionWords.drinkIDs))
    var id: String

    @Option(name: .long, help: "Another drink from `journal drinks`.")
    var drink: String?

    @OptionGroup var fields: DrinkFieldOptions
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if drink == nil, fields.mg == nil, fields.at == nil, fields.note == nil {
            throw ValidationError("nothing to change: give --drink, --mg, --at or --note.")
        }
    }

    func run() throws {
        let mg = try fields.caffeine()
        let clock = try global.clock()
        let consumedAt = try fields.time(clock)
        let (drink, id, note) = (drink, id, fields.note)
        let (target, edited) = try JournalAccess.withStore(db: global.db, clock: clock) { store in
            let kind = try drink.map { try KindLookup.resolve($0, in: store) }
            let target = try store.drink(reference: id)
            let edited = try store.edit(
                target.id, DrinkEdit(kind: kind?.name, caffeineMg: mg ?? kind?.caffeineMg, consumedAt: consumedAt, note: note))
            return (target, edited)
        }
        if output.json {
            Output.line(DrinkExchange.json(edited).prettyText)
        } else {
            Output.line((edited == target ? "Unchanged: " : "Changed ") + Output.describe(edited))
        }
    }
}

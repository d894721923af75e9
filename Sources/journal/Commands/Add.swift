import ArgumentParser
import CommandLineSupport
import JournalKit

struct Add: ParsableCommand {
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

    /// What this command line asks for.
    var request: AddRequest {
        AddRequest(drink: drink, mg: fields.mg, at: fields.at, note: fields.note, db: global.db, json: output.json)
    }

    func run() throws { try request.run() }
}

/// `journal add`, as either parser read it (`FastPath`, or swift-argument-parser through `Add`).
struct AddRequest: Equatable {
    var drink: [String]
    var mg: String?
    var at: String?
    var note: String?
    var db: String?
    var json = false

    func run() throws {
        let name = drink.joined(separator: " ")
        // Everything that can be checked without the journal is, before it is opened (or made).
        let mg = try mg.map { try CaffeineDose.parse($0) }
        let clock = try JournalAccess.clock()
        let consumedAt = try at.map { try TimeExpression(now: clock.now()).parse($0) } ?? clock.now()
        let added = try JournalAccess.withStore(db: db, clock: clock) { store in
            let kind = try KindLookup.resolve(name, in: store)
            return try store.add(NewDrink(kind: kind.name, caffeineMg: mg ?? kind.caffeineMg, consumedAt: consumedAt, note: note))
        }
        if json {
            Output.line(DrinkExchange.json(added).prettyText)
        } else {
            Output.line("Added " + Output.describe(added))
        }
    }
}

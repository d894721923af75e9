import ArgumentParser
import CommandLineSupport
import JournalKit

struct Undo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Revert the last change made on this machine (an add, rm, edit or import).",
        discussion: "Run it again to go further back.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let store = try await global.openStore()
        let undone = try await store.undo()
        if output.json {
            Output.line(JSONValue.object([
                ("action", .string(undone.action)),
                ("drinks", .array(undone.drinks.map { drink, isDeleted in
                    .object([("drink", DrinkExchange.json(drink)), ("deleted", .bool(isDeleted))])
                })),
            ]).prettyText)
            return
        }
        for (drink, isDeleted) in undone.drinks {
            let verb: String
            switch (undone.action, isDeleted) {
            case (_, true): verb = "removed"
            case ("rm", false): verb = "restored"
            default: verb = "back to"
            }
            Output.line("Undid \(undone.action): \(verb) " + Output.describe(drink))
        }
    }
}

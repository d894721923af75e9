import ArgumentParser
import CommandLineSupport
import JournalKit

struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete drinks by id, or by the start of an id as `journal list` shows it (last: the latest).",
        discussion: "All or nothing: if one id is unknown or ambiguous, nothing is deleted. `journal undo` brings them back.")

    @Argument(help: ArgumentHelp("Ids, unique id prefixes, or last (the latest drink).", valueName: "id"), completion: .custom(CompletionWords.drinkIDs))
    var ids: [String]

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give the id of a drink to delete; `journal list` shows them.") }
    }

    func run() async throws {
        let store = try await global.openStore()
        var resolved: [DrinkID] = []
        for reference in ids { resolved.append(try await store.drink(reference: reference).id) }
        let removed = try await store.remove(resolved)
        if output.json {
            Output.line(DrinkExchange.jsonArray(removed), terminator: "")
        } else {
            for drink in removed { Output.line("Deleted " + Output.describe(drink)) }
        }
    }
}

import ArgumentParser
import CommandLineSupport
import JournalKit

struct Undo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Revert the last change made on this machine (add, rm, edit, import, drinks add, drinks rm).",
        discussion: "Run it again to go further back; journal redo puts back what undo took.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        UndoneChangePrinter.print(try await global.openStore().undo(), verb: "Undid", json: output.json)
    }
}

struct Redo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Put back the change the last undo took back.",
        discussion: "Run it again to go further forward. A change made since the undo ends what redo can do.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        UndoneChangePrinter.print(try await global.openStore().redo(), verb: "Redid", json: output.json)
    }
}

/// What undo and redo say: each record the change touched, as it is now.
enum UndoneChangePrinter {
    static func print(_ change: UndoneChange, verb: String, json: Bool) {
        if json {
            return Output.line(JSONValue.object([
                ("action", .string(change.action)),
                ("drinks", .array(change.drinks.map { .object([("drink", DrinkExchange.json($0.payload)), ("deleted", .bool($0.isDeleted))]) })),
                ("definitions", .array(change.definitions.map {
                    .object([("name", .string($0.payload.name)), ("caffeine_mg", .number($0.payload.caffeineMg)), ("deleted", .bool($0.isDeleted))])
                })),
            ]).prettyText)
        }
        let head = "\(verb) \(change.action): "
        for definition in change.definitions {
            let drink = "\(TerminalText.escaped(definition.payload.name)) (\(formatMilligrams(definition.payload.caffeineMg)) mg)"
            Output.line(head + what(definition) + " your drink " + drink)
        }
        for drink in change.drinks { Output.line(head + what(drink) + " " + Output.describe(drink.payload)) }
    }

    /// removed, restored, or back to (a change of what it holds).
    private static func what<Payload>(_ record: UndoneChange.Record<Payload>) -> String {
        switch (record.wasDeleted, record.isDeleted) {
        case (false, true): return "removed"
        case (true, false): return "restored"
        default: return "back to"
        }
    }
}

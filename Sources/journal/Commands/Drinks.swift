import ArgumentParser
import CommandLineSupport
import JournalKit

extension DrinkForm: ExpressibleByArgument {}

struct Drinks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drinks",
        abstract: "The drinks `journal add` knows, and your own.",
        subcommands: [DrinksList.self, DrinksAdd.self, DrinksRemove.self],
        defaultSubcommand: DrinksList.self)
}

struct DrinksList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The catalog, your own drinks included.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let kinds = try await global.openStore().catalog().kinds
        if output.json {
            Output.line(JSONValue.array(kinds.map { kind in
                .object([
                    ("name", .string(kind.name)), ("caffeine_mg", .number(kind.caffeineMg)),
                    ("aliases", .array(kind.aliases.map { .string($0) })), ("serving", kind.serving.map { .string($0) } ?? .null),
                    ("source", .string(kind.source)),
                    ("custom", .bool(kind.isCustom)), ("form", .string(kind.form.rawValue)),
                ])
            }).prettyText)
            return
        }
        // The form only where it is not a beverage's, to keep the table within 80 columns.
        let rows = kinds.map { kind in
            [kind.name, formatMilligrams(kind.caffeineMg), kind.serving ?? "", kind.form == .beverage ? "" : kind.form.rawValue,
             kind.aliases.joined(separator: ", "), kind.source]
        }
        Output.line(Output.table(["DRINK", "MG", "SERVING", "FORM", "ALSO", "SOURCE"], rows))
    }
}

struct DrinksAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Define a drink of your own (or change its caffeine or form); it reaches your other machines.",
        discussion: """
            Example: journal drinks add oat-latte --mg 130, then journal add oat-latte. --form slow is for a drink \
            whose caffeine reaches you slowly, as a soft drink's or chocolate's does (its peak after about 2 hours \
            rather than 40 minutes), for the personal model (see journal profile).
            """)

    @Argument(help: ArgumentHelp("Its name: letters of any script, digits and dashes, such as oat-latte or 抹茶ラテ.", valueName: "name"))
    var name: String

    /// Read as every way in reads an amount (`CaffeineDose.parse`).
    @Option(name: .long, parsing: .unconditional, help: "Caffeine in one serving, in mg.")
    var mg: String

    @Option(name: .long, help: "How fast its caffeine is absorbed: beverage (coffee, tea) or slow (soft drinks, chocolate).")
    var form: DrinkForm = .beverage

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let mg = try CaffeineDose.parse(mg)
        let defined = try await global.openStore().defineDrink(named: name, caffeineMg: mg, form: form)
        let (kind, amount) = (defined.kind, formatMilligrams(defined.kind.caffeineMg))
        if output.json {
            return Output.line(JSONValue.object([
                ("name", .string(kind.name)), ("caffeine_mg", .number(kind.caffeineMg)),
                ("earlier_caffeine_mg", defined.earlierMg.map { .number($0) } ?? .null), ("form", .string(kind.form.rawValue)),
            ]).prettyText)
        }
        let slow = kind.form == .slow ? " (slow)" : ""
        switch (defined.earlierMg, defined.earlierForm) {
        case (nil, _): Output.line("Defined \(kind.name): \(amount) mg\(slow). Log it with: journal add \(kind.name)")
        case (kind.caffeineMg, kind.form): Output.line("\(kind.name) is \(amount) mg\(slow) already: nothing changed.")
        case (let earlier?, let earlierForm):
            let was = earlierForm.map { $0 == kind.form ? "" : " \($0.rawValue)" } ?? ""
            Output.line(
                "Changed \(kind.name): \(formatMilligrams(earlier)) mg\(was) → \(amount) mg\(was.isEmpty ? "" : " " + kind.form.rawValue). "
                    + "Drinks logged with it keep their caffeine\(was.isEmpty ? "" : " and take its form"); journal undo takes the change back.")
        }
    }
}

struct DrinksRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove a drink of your own; drinks already logged with it stay as they are.")

    @Argument(help: ArgumentHelp("The name of one of your drinks.", valueName: "name"), completion: .custom(CompletionWords.ownDrinks))
    var name: String

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let kind = try await global.openStore().removeDrinkKind(named: name)
        if output.json {
            return Output.line(JSONValue.object([("name", .string(kind.name)), ("caffeine_mg", .number(kind.caffeineMg)), ("removed", .bool(true))]).prettyText)
        }
        Output.line("Removed \(kind.name) from your drinks.")
    }
}

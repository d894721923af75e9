import ArgumentParser
import JournalKit

/// A word where a command belongs that names none (`journal stauts`, `journal ls`, `journal sync
/// stauts`): said as such, with the command meant when one is near, instead of the parser's
/// "unexpected argument". Looked for only once parsing failed: a command line that parses costs
/// nothing here.
public struct UnknownCommand: JournalFailure, Equatable {
    public let word: String
    /// The command line up to the word: `journal`, `journal sync`.
    public let parent: String
    /// The commands nearest the word, when any is near.
    public let suggestions: [String]
    public let commands: [String]
    /// The command line that records the drink the word names (`journal espresso`: `journal add
    /// espresso`), when it is the program's first word and a drink of the catalog.
    public var adding: String? = nil

    public var kind: FailureKind { .usage }

    public var description: String {
        let head = "'\(TerminalText.escaped(word))' is not a command of \(parent)."
        if let adding { return head + " To record it as a drink: \(TerminalText.escaped(adding))" }
        if !suggestions.isEmpty {
            let meant = suggestions.map { "'\($0)'" }.joined(separator: " or ")
            return head + " Did you mean \(meant)? `\(parent) --help` says what each does."
        }
        return head + " Its commands: \(commands.joined(separator: ", ")) (`\(parent) --help` says what each does)."
    }

    /// Words people bring from other tools, and the command that does what they mean.
    static let habits = [
        "ls": "list", "ll": "list", "show": "list", "history": "list", "delete": "rm", "del": "rm", "remove": "rm",
        "st": "status", "stat": "status", "info": "status", "now": "status", "set": "config", "get": "config",
        "define": "add", "revert": "undo",
    ]

    /// The first word of `arguments` in a command's place that names no command of `root`'s tree.
    public static func find(in arguments: [String], root: any ParsableCommand.Type) -> UnknownCommand? {
        var command = root
        var path = [root.configuration.commandName ?? "journal"]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--db" {
                index += 1
                continue
            }
            // Another option, or a word after `--`: the parser's to judge.
            guard !argument.hasPrefix("-") else {
                if argument.hasPrefix("--db=") { continue }
                return nil
            }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, argument != "help" else { return nil }
            if let next = subcommands.first(where: { names(of: $0).contains(argument) }) {
                command = next
                path.append(argument)
                continue
            }
            let known = subcommands.compactMap { $0.configuration.commandName }
            // `journal espresso`, `journal double espresso`: a drink where the command belongs.
            let rest = Array(arguments[(index - 1)...])
            if path.count == 1, known.contains("add"),
                DrinkCatalog.builtIn.kind(named: rest.prefix { !$0.hasPrefix("-") }.joined(separator: " ")) != nil
            {
                return UnknownCommand(
                    word: argument, parent: path[0], suggestions: [], commands: known,
                    adding: ([path[0], "add"] + rest.map(ShellWord.quoted)).joined(separator: " "))
            }
            let lowered = argument.lowercased()
            var meant = habits[lowered].map { known.contains($0) ? [$0] : [] } ?? []
            if meant.isEmpty {
                let near = known.map { ($0, EditDistance.between(lowered, $0)) }.filter { $0.1 <= max(1, $0.0.count / 3) }
                let nearest = near.map(\.1).min()
                meant = near.filter { $0.1 == nearest }.map(\.0)
            }
            return UnknownCommand(word: argument, parent: path.joined(separator: " "), suggestions: meant, commands: known)
        }
        return nil
    }

    private static func names(of command: any ParsableCommand.Type) -> [String] {
        (command.configuration.commandName.map { [$0] } ?? []) + command.configuration.aliases
    }
}

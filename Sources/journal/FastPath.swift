import ArgumentParser
import JournalKit

/// The everyday commands' usual command lines (`add espresso --at 8:30`, `status --json`,
/// `list --limit 5`), read without swift-argument-parser: its first parse scans the runtime's every
/// protocol conformance, which is most of what such a command costs. Whatever this reader is not sure
/// of (help, an option it does not know, one given twice, a value that looks like an option, a value
/// that does not convert, `--`) it leaves to the full parser, which says what is wrong as usual.
/// `FastPathTests` checks that every command line it reads means the same to swift-argument-parser.
enum FastPath {
    enum Request: Equatable {
        case add(AddRequest)
        case status(StatusRequest)
        case list(ListRequest)

        func run() throws {
            switch self {
            case .add(let request): try request.run()
            case .status(let request): try request.run()
            case .list(let request): try request.run()
            }
        }
    }

    /// What an option takes: nothing (a flag), a value, or a value even when it starts with "-"
    /// (`--mg`, parsed `.unconditional`).
    private enum Takes { case flag, value, anyValue }

    /// The options of each command, as `Add`, `Status` and `List` (with their option groups) declare
    /// them. Switches, not dictionaries: a dictionary's first use costs a scan of the runtime's
    /// protocol conformances, which is what this path exists to avoid.
    private static func common(_ name: String) -> Takes? {
        switch name {
        case "db": return .value
        case "json": return .flag
        default: return nil
        }
    }

    private static func addOptions(_ name: String) -> Takes? {
        switch name {
        case "mg": return .anyValue
        case "at", "note": return .value
        default: return common(name)
        }
    }

    private static func statusOptions(_ name: String) -> Takes? {
        name == "format" || name == "bedtime" ? .value : common(name)
    }

    private static func listOptions(_ name: String) -> Takes? {
        switch name {
        case "since", "until", "limit": return .value
        case "all": return .flag
        default: return common(name)
        }
    }

    /// The options given, by name ("" for a flag), in the order given.
    private struct Given {
        var pairs: [(name: String, value: String)] = []

        subscript(_ name: String) -> String? { pairs.first { $0.name == name }?.value }
    }

    /// The request `arguments` (without the program's name) make, or nil for the full parser to read.
    static func request(_ arguments: [String]) -> Request? {
        // `--db PATH` may come before the command's name too (`journal --db j.db add espresso`).
        var start = arguments.startIndex
        while start < arguments.endIndex, arguments[start] == "--db" || arguments[start].hasPrefix("--db=") {
            start += arguments[start] == "--db" ? 2 : 1
        }
        guard start < arguments.endIndex else { return nil }
        let command = arguments[start]
        let rest = arguments[..<start] + arguments[(start + 1)...]
        switch command {
        case "add":
            guard let (options, words) = read(rest, allowed: addOptions), !words.isEmpty else { return nil }
            var request = AddRequest(drink: words, db: options["db"], json: options["json"] != nil)
            if let mg = options["mg"] {
                // An amount that is no decimal number is the full parser's to refuse.
                guard DecimalText.value(mg) != nil else { return nil }
                request.mg = mg
            }
            request.at = options["at"]
            request.note = options["note"]
            return .add(request)
        case "status":
            guard let (options, words) = read(rest, allowed: statusOptions), words.isEmpty else { return nil }
            // What `Status.validate()` refuses is the full parser's to say.
            guard options["format"] == nil || options["json"] == nil else { return nil }
            return .status(StatusRequest(
                format: options["format"], bedtime: options["bedtime"], db: options["db"], json: options["json"] != nil))
        case "list", "log":
            guard let (options, words) = read(rest, allowed: listOptions), words.isEmpty else { return nil }
            var request = ListRequest(
                since: options["since"], until: options["until"], all: options["all"] != nil, db: options["db"],
                json: options["json"] != nil)
            if let limit = options["limit"] {
                // What `List.validate()` refuses is the full parser's to say.
                guard let value = Int(argument: limit), value >= 1, !request.all else { return nil }
                request.limit = value
            }
            return .list(request)
        default:
            return nil
        }
    }

    /// The long options and the other words of `arguments`; nil at the first thing the full parser
    /// should judge.
    private static func read(_ arguments: ArraySlice<String>, allowed: (String) -> Takes?) -> (Given, [String])? {
        var options = Given()
        var words: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                words.append(argument)
                continue
            }
            guard argument.hasPrefix("--"), argument.count > 2 else { return nil }
            let body = argument.dropFirst(2)
            let name = String(body.prefix(while: { $0 != "=" }))
            let inline = body.count > name.count ? String(body.dropFirst(name.count + 1)) : nil
            guard let takes = allowed(name), options[name] == nil else { return nil }
            switch takes {
            case .flag:
                guard inline == nil else { return nil }
                options.pairs.append((name, ""))
            case .value, .anyValue:
                if let inline {
                    guard !inline.isEmpty else { return nil }
                    options.pairs.append((name, inline))
                } else {
                    guard index < arguments.endIndex else { return nil }
                    let value = arguments[index]
                    if takes == .value && value.hasPrefix("-") { return nil }
                    options.pairs.append((name, value))
                    index += 1
                }
            }
        }
        return (options, words)
    }
}

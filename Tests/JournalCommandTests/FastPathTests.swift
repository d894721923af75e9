import ArgumentParser
import Foundation
import PropertyBased
import Testing
import TestSupport

@testable import journal

/// The fast path reads a command line only as swift-argument-parser does, and leaves it everything else.
@Suite(.onTestThreads) struct FastPathTests {
    /// What swift-argument-parser makes of `arguments`, as a request of the fast path's kind; nil when
    /// it refuses them or reads another command.
    func fullParse(_ arguments: [String]) -> FastPath.Request? {
        guard let command = try? Journal.parseAsRoot(arguments) else { return nil }
        switch command {
        case let add as Add: return .add(add.request)
        case let status as Status: return .status(status.request)
        case let list as List: return .list(list.request)
        default: return nil
        }
    }

    /// The long options of the real `journal` binary, from its own `--experimental-dump-help`: by
    /// command name ("" for the root), those that take a value and those that are flags.
    struct Dumped {
        var options: [String: Set<String>] = [:]
        var flags: [String: Set<String>] = [:]
    }

    static let dumped: Dumped = {
        let dump = try? ProcessRunner.run(ProcessRunner.executable("journal"), ["--experimental-dump-help"], environment: [:])
        let json = dump.flatMap { try? JSONSerialization.jsonObject(with: Data($0.stdout.utf8)) } as? [String: Any]
        var dumped = Dumped()
        func walk(_ command: [String: Any], name: String) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                let names = (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String }
                let kind = argument["kind"] as? String
                if kind == "option" { dumped.options[name, default: []].formUnion(names) }
                if kind == "flag" { dumped.flags[name, default: []].formUnion(names) }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let subName = sub["commandName"] as? String else { continue }
                for alias in [subName] + (sub["aliases"] as? [String] ?? []) { walk(sub, name: alias) }
            }
        }
        if let root = json?["command"] as? [String: Any] { walk(root, name: "") }
        return dumped
    }()

    /// Every long option of the binary, of any command: the everyday commands' own and others'.
    static let allOptions = Set(dumped.options.values.joined()).sorted()
    static let allFlags = Set(dumped.flags.values.joined()).sorted()

    /// Pieces of the everyday commands' command lines, good and bad: options with values that look
    /// like options, numbers that do not convert, inline values, empty values, repeated options, help,
    /// the terminator, words and options of another command.
    static let values = ["64", "-5", "1e3", "nan", "abc", "0x10", "", "--json", "8:30", "yesterday", "0", "3", "+2", "/tmp/j.db",
                         "{current_mg:.0f} mg"]
    static let options = allOptions.map { "--" + $0 }
    static let loose = allFlags.map { "--" + $0 } + ["espresso", "double", "help", "-h", "--", "-", "-x", "--x", "=", "--json=1",
                        "--version", "--generate-completion-script", "drinks", "status"]

    @Test func theVocabularyIsTheBinarysOwn() {
        #expect(Self.dumped.options["add"]?.contains("mg") == true, "\(Self.dumped)")
        #expect(Self.dumped.flags["log"]?.contains("all") == true, "\(Self.dumped)")
    }

    /// Every option the fast path reads, for each of its commands, is one the binary's own parser
    /// declares for that command, of the same kind (a flag, or one that takes a value): probed with
    /// every long option the binary has.
    @Test(arguments: [["add", "espresso"], ["status"], ["list"], ["log"]])
    func everyOptionTheFastPathKnowsIsInTheBinarysDump(_ command: [String]) {
        let declared = (options: Self.dumped.options[command[0]] ?? [], flags: Self.dumped.flags[command[0]] ?? [])
        #expect(!declared.options.isEmpty, "\(command[0]) is not in the dump")
        for name in Set(Self.allOptions + Self.allFlags) {
            if FastPath.request(command + ["--\(name)=3"]) != nil {
                #expect(declared.options.contains(name), "the fast path reads --\(name) VALUE for \(command[0]); the binary does not")
            }
            if FastPath.request(command + ["--\(name)"]) != nil {
                #expect(declared.flags.contains(name), "the fast path reads the flag --\(name) for \(command[0]); the binary does not")
            }
        }
    }

    /// One piece: an option and its value (separate or inline), or a word on its own.
    static let piece = zip(Gen.int(in: 0...2), Gen.int(in: 0...(options.count - 1)), Gen.int(in: 0...(values.count - 1)),
                           Gen.int(in: 0...(loose.count - 1))).map { shape, option, value, word -> [String] in
        switch shape {
        case 0: return [options[option], values[value]]
        case 1: return [options[option] + "=" + values[value]]
        default: return [loose[word]]
        }
    }

    /// A command name (or, now and then, something else first) and up to five pieces.
    static let commandLines = zip(Gen.int(in: 0...7), piece.array(of: 0...5)).map { command, pieces in
        [["add"], ["status"], ["list"], ["log"], ["--db", "/tmp/j.db", "add"], ["--db=/tmp/k.db"], ["--db"], ["espresso"]][command]
            + pieces.flatMap { $0 }
    }

    @Test func everyCommandLineItReadsMeansTheSameToSwiftArgumentParser() async {
        await checkProperty(count: 20_000, input: Self.commandLines) { arguments in
            guard let fast = FastPath.request(arguments) else { return }
            #expect(fullParse(arguments) == fast, "\(arguments)")
        }
    }

    @Test(arguments: [
        ["add", "espresso"], ["add", "double", "espresso", "--at", "8:30", "--note", "after lunch"], ["add", "tea", "--mg", "-5"],
        ["add", "espresso", "--json", "--db", "/tmp/j.db"], ["add", "--mg=30", "cola"], ["status"], ["status", "--json"],
        ["--db", "/tmp/j.db", "add", "espresso"], ["--db=/tmp/j.db", "list"],
        ["list"], ["log", "--limit", "5"], ["status", "--format", "{current_mg:.0f} mg"], ["status", "--bedtime", "23:00", "--json"], ["list", "--since", "yesterday", "--until", "8:00", "--json"], ["list", "--all"],
    ])
    func theUsualCommandLinesTakeTheFastPath(_ arguments: [String]) {
        let fast = FastPath.request(arguments)
        #expect(fast != nil)
        #expect(fullParse(arguments) == fast)
    }

    @Test(arguments: [
        ["add"], ["add", "--help"], ["add", "espresso", "--mg", "lots"], ["add", "espresso", "--at", "1", "--at", "2"],
        ["add", "espresso", "--note", "-x"], ["status", "now"], ["list", "--limit", "0"], ["list", "--all", "--limit", "2"],
        ["list", "--limit"], ["add", "--", "espresso"], ["add", "espresso", "-h"], ["status", "--json=yes"], ["status", "--json", "--format", "x"], ["--db", "x", "status", "--db", "y"], ["--db"],
        ["help", "add"], ["drinks"], [],
    ])
    func whatItIsNotSureOfGoesToTheFullParser(_ arguments: [String]) {
        #expect(FastPath.request(arguments) == nil)
    }
}

import ArgumentParser
import PropertyBased
import Testing

@testable import journal

/// The fast path reads a command line only as swift-argument-parser does, and leaves it everything else.
@Suite struct FastPathTests {
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

    /// Pieces of the everyday commands' command lines, good and bad: options with values that look
    /// like options, numbers that do not convert, inline values, empty values, repeated options, help,
    /// the terminator, words of another command.
    static let values = ["64", "-5", "1e3", "nan", "abc", "0x10", "", "--json", "8:30", "yesterday", "0", "3", "+2", "/tmp/j.db",
                         "{current_mg:.0f} mg"]
    static let options = ["--mg", "--at", "--note", "--db", "--since", "--until", "--limit", "--format"]
    static let loose = ["--json", "--all", "espresso", "double", "help", "--help", "-h", "--", "-", "-x", "--x", "=", "--json=1",
                        "--version", "--generate-completion-script", "drinks", "status"]

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
        await propertyCheck(count: 20_000, input: Self.commandLines) { arguments in
            guard let fast = FastPath.request(arguments) else { return }
            #expect(fullParse(arguments) == fast, "\(arguments)")
        }
    }

    @Test(arguments: [
        ["add", "espresso"], ["add", "double", "espresso", "--at", "8:30", "--note", "after lunch"], ["add", "tea", "--mg", "-5"],
        ["add", "espresso", "--json", "--db", "/tmp/j.db"], ["add", "--mg=30", "cola"], ["status"], ["status", "--json"],
        ["--db", "/tmp/j.db", "add", "espresso"], ["--db=/tmp/j.db", "list"],
        ["list"], ["log", "--limit", "5"], ["status", "--format", "{current_mg:.0f} mg"], ["list", "--since", "yesterday", "--until", "8:00", "--json"], ["list", "--all"],
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

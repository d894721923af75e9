import Foundation
import Testing
import TestSupport

/// A mistyped or borrowed command word is named as no command, with the one meant, as a mistyped
/// drink is; exit 64, and nothing is touched.
@Suite(.onTestThreads) struct UnknownCommandTests {
    @Test(arguments: [
        (["stauts"], "'stauts' is not a command of journal. Did you mean 'status' or 'stats'?"),
        (["ls"], "'ls' is not a command of journal. Did you mean 'list'?"),
        (["--db", "/nowhere/j.db", "delete", "abc"], "'delete' is not a command of journal. Did you mean 'rm'?"),
        (["sync", "stauts"], "'stauts' is not a command of journal sync. Did you mean 'status'?"),
        (["drinks", "ad", "oat-latte"], "'ad' is not a command of journal drinks. Did you mean 'add'?"),
        (["frobnicate"], "'frobnicate' is not a command of journal. Its commands: add, list, rm, undo, redo,"),
        // A drink where the command belongs: the command that records it.
        (["espresso"], "'espresso' is not a command of journal. To record it as a drink: journal add espresso.\n"),
        (["double", "espresso", "--note", "after lunch"],
         "'double' is not a command of journal. To record it as a drink: journal add double espresso --note 'after lunch'.\n"),
    ])
    func aWordThatIsNoCommandIsSaidSo(arguments: [String], message: String) async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let result = try journal.run(arguments)
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("journal: " + message), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: journal.databasePath))
        }
    }

    /// Help and the parser's own messages are as they were.
    @Test func helpAndOtherMistakesAreTheParsers() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            #expect(try journal.run("help", "status").stdout.contains("OVERVIEW"))
            let extra = try journal.run("list", "extra")
            #expect(extra.status == 64 && extra.stderr.contains("Unexpected argument 'extra'"), "\(extra.stderr)")
        }
    }

    /// `journal -v` and `journal version` say what `--version` says, as git's do.
    @Test func versionAsGitSaysIt() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let version = try journal.run("--version")
            #expect(version.status == 0 && version.stdout.hasPrefix("journal "), "\(version.stderr)")
            for words in [["-v"], ["version"]] {
                let result = try journal.run(words)
                #expect(result.status == 0 && result.stdout == version.stdout, "\(words): \(result.stdout)\(result.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: journal.databasePath))
        }
    }
}

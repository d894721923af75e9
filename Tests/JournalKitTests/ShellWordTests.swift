import Foundation
import JournalKit
import Testing
import TestSupport

/// A word the program prints for a person to paste reads back, in a real shell, as exactly itself:
/// nothing in it runs, expands or splits, whoever chose it.
@Suite(.onTestThreads) struct ShellWordTests {
    static func words(_ folder: String) -> [String] { [
        "/srv/journal hub", "a'b", "'", "''", "$(touch \(folder)/pwned)", "`touch \(folder)/pwned`", "x'$(touch \(folder)/pwned)'", "${HOME}", "~", "~/x", "*", "a b\tc", "x\ny",
        "=ls", "-rf", "!!", "a;b", "a|b", "a&b", "a>b", "(x)", "{a,b}", "[ab]", "#x", "\\", "\"", "é ✓", "/plain/path-1.2_3",
        "postgresql://alice@db:5432/journal?sslmode=verify-full&x=1", "",
    ] }

    @Test(arguments: ["/bin/sh", "/bin/bash"])
    func everyWordReadsBackAsItself(_ shell: String) async throws {
        try await withTemporaryDirectory { folder in
            for word in Self.words(folder) {
                let printed = try ProcessRunner.run(shell, ["-c", "printf '%s' " + ShellWord.quoted(word)], environment: ["HOME": folder], stdin: nil)
                #expect(printed.status == 0 && printed.stdout == word, "\(ShellWord.quoted(word)) read back as \(printed.stdout)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder + "/pwned"))
        }
    }

    @Test func aPlainWordIsLeftAsItIs() {
        #expect(ShellWord.quoted("/srv/journal-hub_1.2") == "/srv/journal-hub_1.2")
        #expect(ShellWord.quoted("it's") == #"'it'\''s'"#)
    }
}

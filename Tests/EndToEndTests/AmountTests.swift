import Foundation
import Testing
import TestSupport

/// An amount of caffeine is a decimal number whichever way a drink comes in (`--mg`, a journal
/// export, an Apple Health export): not hexadecimal, `inf` or `nan`, and `-0` is negative.
@Suite(.onTestThreads) struct AmountTests {
    @Test func hexadecimalOrNegativeZeroIsRefusedOnTheCommandLine() async throws {
        try await withTemporaryDirectory { folder in
            let journal = JournalCLI(home: folder)
            let added = try #require(try journal.json("add", "espresso", "--json") as? [String: Any])
            let id = String(try #require(added["id"] as? String).prefix(8))
            let before = try journal.fingerprint()
            for arguments in [
                ["add", "espresso", "--mg", "0x40"], ["add", "espresso", "--mg=0x40"], ["add", "espresso", "--mg", "-0"],
                ["add", "espresso", "--mg", "+64"], ["add", "espresso", "--mg", "64 "], ["edit", id, "--mg", "0x40"],
                ["drinks", "add", "hex-latte", "--mg", "0x40"],
            ] {
                let result = try journal.run(arguments)
                #expect(result.status == 64, "\(arguments): \(result.stdout)\(result.stderr)")
                #expect(result.stderr.contains("mg"), "\(arguments): \(result.stderr)")
            }
            #expect(try journal.run("add", "espresso", "--mg", "0x40").stderr.contains("'0x40' is not a number of mg"))
            #expect(try journal.run("add", "espresso", "--mg", "-0").stderr.contains("caffeine of -0 mg is not possible"))
            #expect(try journal.fingerprint() == before)
        }
    }

    @Test(arguments: [
        ("json", "[{\"id\": \"6f1c2a44-3b1e-4c8a-9a55-0d1e2f3a4b5c\", \"drink\": \"espresso\", \"caffeine_mg\": \"0x40\", \"consumed_at\": \"2026-11-20T08:00:00Z\"}]",
         "caffeine_mg '0x40' is not a number"),
        ("json", "[{\"id\": \"6f1c2a44-3b1e-4c8a-9a55-0d1e2f3a4b5c\", \"drink\": \"espresso\", \"caffeine_mg\": -0, \"consumed_at\": \"2026-11-20T08:00:00Z\"}]",
         "caffeine of -0 mg is not possible"),
        ("csv", "id,drink,caffeine_mg,consumed_at,note\r\n6f1c2a44-3b1e-4c8a-9a55-0d1e2f3a4b5c,espresso,0x40,2026-11-20T08:00:00Z,\r\n",
         "caffeine_mg '0x40' is not a number"),
        ("csv", "id,drink,caffeine_mg,consumed_at,note,drink_serving_mg\r\n6f1c2a44-3b1e-4c8a-9a55-0d1e2f3a4b5c,hex-latte,64,2026-11-20T08:00:00Z,,0x40\r\n",
         "drink_serving_mg '0x40' is not a number"),
    ])
    func aJournalExportsAmountsAreDecimalToo(format: String, text: String, message: String) async throws {
        try await withTemporaryDirectory { folder in
            try text.write(toFile: folder + "/export." + format, atomically: true, encoding: .utf8)
            let result = try JournalCLI(home: folder + "/home").run("import", folder + "/export." + format)
            #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }
}

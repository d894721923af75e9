import Foundation
import Testing
import TestSupport

/// `--json` on the commands that print data and had none: every field present, `null` when empty.
@Suite(.onTestThreads) struct JSONOutputTests {
    @Test func drinksAddAndRmAndADrinkWithoutANote() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let defined = try #require(try journal.json("drinks", "add", "oat-latte", "--mg", "130", "--json") as? [String: Any])
            #expect(defined["name"] as? String == "oat-latte" && defined["caffeine_mg"] as? Double == 130 && defined["earlier_caffeine_mg"] is NSNull)
            let changed = try #require(try journal.json("drinks", "add", "oat-latte", "--mg", "120", "--json") as? [String: Any])
            #expect(changed["earlier_caffeine_mg"] as? Double == 130, "\(changed)")
            let removed = try #require(try journal.json("drinks", "rm", "oat-latte", "--json") as? [String: Any])
            #expect(removed["name"] as? String == "oat-latte" && removed["removed"] as? Bool == true)
            let added = try #require(try journal.json("add", "espresso", "--json") as? [String: Any])
            #expect(added["note"] is NSNull, "\(added)")
        }
    }

    @Test func importSaysItsCounts() async throws {
        try await withTemporaryDirectory { folder in
            let first = JournalCLI(home: folder + "/a")
            for drink in ["espresso", "tea"] { try first.run("add", drink) }
            let file = folder + "/a.json"
            try first.run("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
            let journal = JournalCLI(home: folder + "/b")
            let imported = try #require(try journal.json("import", file, "--json") as? [String: Any])
            #expect(imported["imported"] as? Double == 2 && imported["already_present"] as? Double == 0, "\(imported)")
            try journal.run("undo")
            let again = try #require(try journal.json("import", file, "--json") as? [String: Any])
            #expect(again["imported"] as? Double == 0 && again["deleted_here"] as? Double == 2, "\(again)")
        }
    }

    @Test func syncKeyAndRename() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let a = joined.machines[0]
            let key = try #require(try a.json("sync", "key", "--json") as? [String: Any])
            let printed = try #require(key["key"] as? String)
            #expect(printed.hasPrefix("JK2-\(key["hub_label"] as? String ?? "?")-") && key["invitation_printed_at"] is String, "\(key)")
            let renamed = try #require(try a.json("sync", "rename", "home desk", "--json") as? [String: Any])
            #expect(renamed["name"] as? String == "home desk" && renamed["device"] is String, "\(renamed)")
        }
    }
}

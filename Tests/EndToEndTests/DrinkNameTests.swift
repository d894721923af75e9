import Foundation
import Testing
import TestSupport

/// Drinks of one's own named in any script: kept in one canonical form, found whatever the case or
/// width they are typed in, unchanged through export, import and sync; what cannot name a drink is
/// refused with the rule, and changes nothing.
@Suite(.onTestThreads) struct DrinkNameTests {
    @Test func aDrinkNamedInAnyScriptTravelsUnchanged() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            for (name, mg) in [("抹茶ラテ", "70"), ("Café-Crème", "90"), ("카페라테", "75")] {
                let defined = try a.run("drinks", "add", name, "--mg", mg)
                #expect(defined.status == 0, "\(defined.stderr)")
            }
            // Typed in another width or case, or with the accent decomposed, each finds its drink.
            for typed in ["抹茶ラテ", "CAFE\u{301}-CRE\u{300}ME", "café crème", "카페라테"] {
                let added = try a.run("add", typed)
                #expect(added.status == 0, "\(typed): \(added.stderr)")
            }
            #expect(try a.run("add", "ＣＡＦÉ-crème").status == 0)
            let listed = try #require(try a.json("list", "--json") as? [[String: Any]])
            #expect(listed.compactMap { $0["drink"] as? String }.sorted() == ["café-crème", "café-crème", "café-crème", "抹茶ラテ", "카페라테"].sorted())
            let drinks = try a.run("drinks").stdout
            #expect(drinks.contains("抹茶ラテ") && drinks.contains("café-crème"), "\(drinks)")

            // Through sync, the other machine knows the drinks and the names, byte for byte.
            #expect(try a.run("sync").status == 0)
            #expect(try b.run("sync").status == 0)
            #expect(try b.run("export").stdout == a.run("export").stdout)
            #expect(try b.run("add", "抹茶ラテ").status == 0)

            // Through export and import, into a journal of its own.
            let export = try a.run("export", "--format", "csv").stdout
            let fresh = JournalCLI(home: folder + "/fresh")
            for (name, mg) in [("抹茶ラテ", "70"), ("café-crème", "90"), ("카페라테", "75")] { try fresh.run("drinks", "add", name, "--mg", mg) }
            let imported = try fresh.run(["import", "-"], stdin: export)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(try fresh.run("export").stdout == a.run("export").stdout)
        }
    }

    /// Issue 31: a name that looks like a catalog drink's (a Cyrillic е in espresso) is refused, and
    /// so is one that looks like another of one's own drinks.
    @Test func aNameThatLooksLikeAnotherDrinksIsRefused() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home)
            try cli.run("drinks", "add", "mocha", "--mg", "80")
            let before = try cli.fingerprint()
            let drinksBefore = try cli.run("drinks", "--json").stdout
            let catalogs = try cli.run("drinks", "add", "\u{435}spresso", "--mg", "10")
            #expect(catalogs.status == 64, "\(catalogs.stderr)")
            #expect(catalogs.stderr.contains("'\u{435}spresso' looks like the catalog's espresso: choose another name"), "\(catalogs.stderr)")
            let own = try cli.run("drinks", "add", "M\u{43E}cha", "--mg", "10")
            #expect(own.status == 64, "\(own.stderr)")
            #expect(own.stderr.contains("'m\u{43E}cha' looks like your drink mocha: choose another name"), "\(own.stderr)")
            #expect(try cli.fingerprint() == before)
            #expect(try cli.run("drinks", "--json").stdout == drinksBefore)
        }
    }

    /// Issue 31: a ligature is the letters it joins, so "ﬀ-latte" is the drink "ff-latte", not a second one.
    @Test func aLigatureNamesTheDrinkOfItsLetters() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home)
            #expect(try cli.run("drinks", "add", "ff-latte", "--mg", "80").status == 0)
            let again = try cli.run("drinks", "add", "\u{FB00}-latte", "--mg", "90")
            #expect(again.status == 0, "\(again.stderr)")
            let own = try #require(try cli.json("drinks", "--json") as? [[String: Any]]).filter { $0["custom"] as? Bool == true }
            #expect(own.map { $0["name"] as? String } == ["ff-latte"])
            #expect(own.map { $0["caffeine_mg"] as? Double } == [90])
            let added = try cli.run("add", "\u{FB00}-latte")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("ff-latte"), "\(added.stdout)")
        }
    }

    /// Issue 31: a name defined in capitals is found in small letters, final sigma included.
    @Test func aNameInCapitalsIsFoundWithAFinalSigma() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home)
            #expect(try cli.run("drinks", "add", "ΣΟΦΙΑΣ", "--mg", "50").status == 0)
            for typed in ["σοφιας", "ΣΟΦΙΑΣ", "Σοφιας"] {
                let added = try cli.run("add", typed)
                #expect(added.status == 0, "\(typed): \(added.stderr)")
            }
        }
    }

    /// Issue 31: "istanbul-çay" finds the drink defined as "İstanbul-çay".
    @Test func theTurkishDottedCapitalIIsFoundWithoutItsDot() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home)
            #expect(try cli.run("drinks", "add", "İstanbul-çay", "--mg", "30").status == 0)
            for typed in ["istanbul-çay", "İstanbul-çay", "ISTANBUL-ÇAY"] {
                let added = try cli.run("add", typed)
                #expect(added.status == 0, "\(typed): \(added.stderr)")
            }
            let listed = try #require(try cli.json("list", "--json") as? [[String: Any]])
            #expect(Set(listed.compactMap { $0["drink"] as? String }) == ["istanbul-çay"])
        }
    }

    /// An import cannot bring in a drink whose name looks like another's either.
    @Test func anImportedLookalikeIsRefused() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home)
            try cli.run("add", "espresso")
            let before = try cli.fingerprint()
            let csv = "id,drink,caffeine_mg,consumed_at,drink_serving_mg\n"
                + "0b7c9c1e-0b1a-4c3e-9a57-5a8f3f0c2d11,\u{435}spresso,10,2026-11-20T08:00:00Z,10\n"
            let refused = try cli.run(["import", "-"], stdin: csv)
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("line 2: '\u{435}spresso' looks like the catalog's espresso"), "\(refused.stderr)")
            #expect(try cli.fingerprint() == before)
        }
    }

    @Test(arguments: ["☕", "tea\u{202E}x", "a b c d e f g h i j k l m n o p q r s t u", "9-lives", "mat\u{7}cha", "👍👍", "抹茶·ラテ", "\u{3164}", "espresso\u{FE0F}",
                      String(repeating: "抹", count: 41), "x\u{200D}y"])
    func whatCannotNameADrinkIsRefusedWithTheRule(name: String) async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home)
            try cli.run("add", "espresso")
            let before = try cli.fingerprint()
            let refused = try cli.run("drinks", "add", name, "--mg", "50")
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(refused.stderr.contains("cannot name a drink: use 1 to 40 letters (of any script), digits and dashes, starting with a letter"),
                    "\(refused.stderr)")
            #expect(!refused.stderr.contains("\u{202E}") && !refused.stderr.contains("\u{7}"))
            #expect(try cli.fingerprint() == before)
        }
    }
}

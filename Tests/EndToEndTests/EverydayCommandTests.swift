import Foundation
import Testing
import TestSupport

@Suite(.onTestThreads) struct EverydayCommandTests {
    /// What the everyday commands do not use, their program does not load: no Foundation (the test
    /// build of the daemon links it; the release build not even there), no crypto, no network driver.
    /// `journal sync` and `journal import --from apple-health` hand their work to the program that
    /// links them.
    @Test(arguments: [("Foundation", "10Foundation"), ("Crypto", "6Crypto"), ("NIO", "7NIOCore"), ("PostgresNIO", "11PostgresNIO")])
    func theEverydayProgramLeavesOut(_ module: String, _ mangled: String) throws {
        let symbols = try ProcessRunner.run("/usr/bin/nm", [JournalCLI.binary], environment: [:])
        #expect(symbols.status == 0 && symbols.stdout.contains("$s14ArgumentParser"), "nm cannot read \(JournalCLI.binary)")
        #expect(!symbols.stdout.contains("$s" + mangled), "journal links \(module)")
        let daemon = try ProcessRunner.run("/usr/bin/nm", [ProcessRunner.executable("journal-syncd")], environment: [:]).stdout
        #expect(daemon.contains("$s" + mangled), "the check for \(module) finds nothing anywhere")
    }

    @Test func addListStatusOnTheDefaultDatabase() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let added = try journal.run("add", "espresso")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.hasPrefix("Added espresso 64 mg at 2026-11-21 15:30"))
            #expect(try journal.run("add", "double", "espresso", "--at", "30 min ago", "--note", "with milk").status == 0)
            #expect(try journal.run("add", "coffee", "--at", "8am", "--mg", "150").status == 0)
            #expect(FileManager.default.fileExists(atPath: journal.databasePath))
            #expect(try permissions(journal.databasePath) == 0o600)

            let list = try journal.run("list")
            let lines = list.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 4)
            #expect(lines[1].contains("2026-11-21 08:00  medium-coffee    150"))
            #expect(lines[2].contains("2026-11-21 15:00  double-espresso  128  with milk"))
            #expect(lines[3].contains("espresso"))
            #expect(try journal.run("log", "--limit", "1").stdout.split(separator: "\n").count == 2)

            let drinks = try #require(try journal.json("list", "--json") as? [[String: Any]])
            #expect(drinks.map { $0["drink"] as? String } == ["medium-coffee", "double-espresso", "espresso"])
            #expect(drinks[1]["note"] as? String == "with milk")
            #expect(drinks[0]["note"] is NSNull, "every field is present, a missing note as null")
            #expect(drinks[1]["consumed_at"] as? String == "2026-11-21T15:00:00+00:00")
            #expect(drinks[2]["caffeine_mg"] as? Double == 64)

            let status = try #require(try journal.json("status", "--json") as? [String: Any])
            #expect(status["today_mg"] as? Double == 342)
            #expect(status["cups_today"] as? Double == 3.56)
            #expect(status["drinks_today"] as? Double == 3)
            let expected = 64 + 128 * pow(0.5, 0.5 / 5) + 150 * pow(0.5, 7.5 / 5)
            #expect(abs((status["current_mg"] as? Double ?? 0) - expected) < 0.01)
            let text = try journal.run("status").stdout
            #expect(text.contains("Today         342 mg in 3 drinks (3.6 cups)"))
        }
    }

    @Test func listTakesARangeAndTheWholeHistory() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            for day in 1...30 { try journal.run("add", "tea", "--at", "\(day) days ago") }
            #expect(try journal.run("list").stdout.split(separator: "\n").count == 21)
            #expect(try journal.run("list", "--all").stdout.split(separator: "\n").count == 31)
            let week = try #require(try journal.json("list", "--since", "7 days ago", "--json") as? [Any])
            #expect(week.count == 7)
            let range = try #require(try journal.json("list", "--since", "2026-11-10T00:00", "--until", "2026-11-12T00:00", "--json") as? [Any])
            #expect(range.count == 2)
            #expect(try journal.run("list", "--limit", "0").status == 64)
        }
    }

    @Test func editRemoveByPrefixAndUndo() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let added = try #require(try journal.json("add", "espresso", "--json") as? [String: Any])
            let id = try #require(added["id"] as? String)
            let prefix = String(id.prefix(6))

            let edited = try journal.run("edit", prefix, "--drink", "double-espresso", "--note", "big one")
            #expect(edited.status == 0, "\(edited.stderr)")
            #expect(edited.stdout.contains("double-espresso 128 mg"))
            #expect(try journal.run("edit", prefix).status == 64)

            let removed = try journal.run("rm", prefix)
            #expect(removed.status == 0)
            #expect(removed.stdout.contains("Deleted double-espresso"))
            #expect(try journal.run("list", "--json").stdout == "[]\n")

            #expect(try journal.run("undo").stdout.contains("Undid rm: restored double-espresso"))
            let undoneEdit = try #require(try journal.json("undo", "--json") as? [String: Any])
            #expect(undoneEdit["action"] as? String == "edit")
            let restored = try #require((undoneEdit["drinks"] as? [[String: Any]])?.first)
            #expect((restored["drink"] as? [String: Any])?["drink"] as? String == "espresso")
            #expect(restored["deleted"] as? Bool == false)
            #expect(try journal.run("undo").stdout.contains("Undid add: removed espresso"))
            let nothing = try journal.run("undo")
            #expect(nothing.status == 1)
            #expect(nothing.stderr.contains("nothing to undo"))
        }
    }

    @Test func helpIsTheParsersToPrintAndSucceeds() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            for arguments in [["--help"], ["help", "add"], ["add", "--help"], ["sync", "init", "--help"]] {
                let result = try journal.run(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(result.stdout.hasPrefix("OVERVIEW: ") && result.stderr.isEmpty, "\(arguments)")
            }
            let daemon = try ProcessRunner.run(ProcessRunner.executable("journal-syncd"), ["--help"], environment: journal.environment)
            #expect(daemon.status == 0 && daemon.stdout.contains("(default: 5m)"), "\(daemon.stdout)")
        }
    }

    @Test func catalogListsEveryDrink() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let kinds = try #require(try journal.json("drinks", "--json") as? [[String: Any]])
            #expect(kinds.count == 21)
            #expect(kinds.contains { $0["name"] as? String == "espresso" && ($0["aliases"] as? [String]) == ["single-espresso"] })
            #expect(try journal.run("drinks").stdout.contains("quad-espresso"))
        }
    }

    @Test func sqlReadsViewsInThreeFormatsAndRefusesWrites() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso", "--at", "yesterday 9:00")
            try journal.run("add", "espresso", "--at", "9:00", "--note", "a, \"quoted\" note")
            try journal.run("add", "tea", "--at", "10:00")
            let table = try journal.run("sql", "select day, drinks, caffeine_mg from daily_totals")
            #expect(table.stdout == "day         drinks  caffeine_mg\n2026-11-20  1       64\n2026-11-21  2       111\n")
            let csv = try journal.run("sql", "select drink, consumed_at, note from history", "--format", "csv")
            #expect(csv.stdout.contains("espresso,2026-11-21 09:00:00,\"a, \"\"quoted\"\" note\"\r\n"))
            let json = try #require(try journal.json("sql", "select drink, caffeine_mg from history where drink = 'black-tea'", "--format", "json") as? [[String: Any]])
            #expect(json.count == 1)
            #expect(json[0]["caffeine_mg"] as? Double == 47)

            let before = try journal.fingerprint()
            for write in [
                "delete from drinks", "update drinks set caffeine_mg = 0", "drop view history",
                "select 1; delete from drinks", "insert into meta values ('x', 1)", "pragma user_version = 7",
                "attach database '\(home)/other.db' as other", "vacuum",
            ] {
                let refused = try journal.run("sql", write)
                #expect(refused.status == 64, "\(write): \(refused.stderr)")
                #expect(refused.stderr.contains("only reading is allowed"), "\(write): \(refused.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: home + "/other.db"))
            #expect(try journal.fingerprint() == before)
            let broken = try journal.run("sql", "select * from nowhere")
            #expect(broken.status == 64)
            #expect(broken.stderr.contains("no such table: nowhere"))
        }
    }

    @Test func exportAndImportRoundTripBetweenJournals() async throws {
        try await withTemporaryDirectory { folder in
            let first = JournalCLI(home: folder + "/a")
            try first.run("add", "espresso", "--at", "yesterday 9:00", "--note", "line one\nline two")
            try first.run("add", "cola", "--at", "2026-11-21T10:15:30.250Z")
            try first.run("add", "tea", "--mg", "52.5")
            for format in ["json", "csv"] {
                let exported = try first.run("export", "--format", format)
                #expect(exported.status == 0)
                let second = JournalCLI(home: folder + "/b-\(format)")
                let file = folder + "/export.\(format)"
                try exported.stdout.write(toFile: file, atomically: true, encoding: .utf8)
                let imported = try second.run("import", file)
                #expect(imported.stdout == "Imported 3 drinks.\n", "\(imported.stderr)")
                #expect(try second.run("export", "--format", format).stdout == exported.stdout)
                let again = try second.run("import", "-", stdin: exported.stdout)
                #expect(again.stdout == "Imported 0 drinks (3 already in the journal).\n")
            }
        }
    }

    @Test func pathFollowsXDGAndTheOverrides() async throws {
        try await withTemporaryDirectory { home in
            var journal = JournalCLI(home: home)
            #expect(try journal.run("path").stdout == journal.databasePath + "\n")
            journal.environment["XDG_DATA_HOME"] = home + "/data"
            #expect(try journal.run("path").stdout == home + "/data/journal/journal.db\n")
            journal.environment["JOURNAL_DB"] = home + "/env.db"
            #expect(try journal.run("path").stdout == home + "/env.db\n")
            #expect(try journal.run("--db", home + "/flag.db", "path").stdout == home + "/flag.db\n")
            #expect(try journal.run("path", "--db", home + "/flag.db").stdout == home + "/flag.db\n")
            #expect(!FileManager.default.fileExists(atPath: home + "/env.db"))
            try journal.run("--db", home + "/flag.db", "add", "tea")
            #expect(try journal.run("--db", home + "/flag.db", "list", "--json").stdout.contains("black-tea"))
        }
    }

    @Test func severalAddsAtTheSameMomentAllSucceed() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: nil)
            let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
                for _ in 0..<12 { group.addTask { try journal.run("add", "espresso") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for result in results {
                #expect(result.status == 0, "\(result.stderr)")
                #expect(!result.stderr.contains("locked"))
            }
            let count = try journal.run("sql", "select count(*), count(distinct seq), count(distinct hlc) from drinks", "--format", "csv")
            #expect(count.stdout.hasSuffix("12,12,12\r\n"))
        }
    }

    /// A time typed after the drink is when it was had, as --at says it: `add espresso 8:00`. With
    /// --at given, or words that are no time, the drink is unknown as before.
    @Test func aTimeAfterTheDrinkIsItsTime() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            let morning = try journal.run("add", "espresso", "8:00")
            #expect(morning.status == 0 && morning.stdout.hasPrefix("Added espresso 64 mg at 2026-11-21 08:00"), "\(morning.stdout)\(morning.stderr)")
            let yesterday = try journal.run("add", "double espresso", "yesterday", "9am", "--note", "late entry")
            #expect(yesterday.stdout.hasPrefix("Added double-espresso 128 mg at 2026-11-20 09:00 — late entry"), "\(yesterday.stdout)\(yesterday.stderr)")
            // A drink of one's own whose name ends in a number is itself, not a time.
            try journal.run("drinks", "add", "tea 2", "--mg", "30")
            #expect(try journal.run("add", "tea", "2").stdout.hasPrefix("Added tea-2 30 mg at 2026-11-21 15:30"))
            for words in [["espresso", "8:00", "--at", "9:00"], ["espresso", "soon"], ["espresso", "25:00"]] {
                let refused = try journal.run(["add"] + words)
                #expect(refused.status == 65 && refused.stderr.contains("unknown drink"), "\(words): \(refused.stderr)")
            }
            #expect(try journal.run("list", "--json").stdout.components(separatedBy: "\"id\"").count == 4)
        }
    }
}

import Foundation
import Testing
import TestSupport

/// Every bad input gets a clear message on stderr, a non-zero exit, and leaves the journal as it was.
@Suite(.onTestThreads) struct BadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let status: Int32
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["add", "espreso"], status: 65, message: "unknown drink 'espreso'. Did you mean 'espresso'?"),
        Case(arguments: ["add", "mocha"], status: 65, message: "journal drinks"),
        Case(arguments: ["add", "espresso", "--mg", "-5"], status: 64, message: "-5 mg is not possible"),
        Case(arguments: ["add", "espresso", "--mg", "nan"], status: 64, message: "'nan' is not a number of mg"),
        Case(arguments: ["add", "espresso", "--mg", "inf"], status: 64, message: "'inf' is not a number of mg"),
        Case(arguments: ["add", "espresso", "--mg", "1500"], status: 64, message: "from 0 to 1000 mg. Give the amount in mg, such as --mg 80."),
        Case(arguments: ["add", "espresso", "--mg", "lots"], status: 64, message: "lots"),
        Case(arguments: ["add", "espresso", "--at", "teatime"], status: 65, message: "cannot use 'teatime' as a time"),
        Case(arguments: ["add", "espresso", "--at", "23:00"], status: 65, message: "'yesterday 23:00'"),
        Case(arguments: ["add", "espresso", "--at", "2026-12-01T08:00"], status: 65, message: "in the future"),
        Case(arguments: ["add"], status: 64, message: "Missing expected argument"),
        Case(arguments: ["add", "espresso", "--bogus"], status: 64, message: "--bogus"),
        Case(arguments: ["rm", "ffffffff"], status: 65, message: "no drink has an id starting with 'ffffffff'"),
        Case(arguments: ["rm", "not-an-id!"], status: 65, message: "no drink has an id"),
        Case(arguments: ["edit", "ffffffff", "--mg", "5"], status: 65, message: "no drink has an id"),
        Case(arguments: ["edit", "ffffffff", "--drink", "mocha"], status: 65, message: "unknown drink 'mocha'"),
        Case(arguments: ["sql", "delete from drinks"], status: 64, message: "only reading is allowed"),
        Case(arguments: ["sql", "select * from"], status: 64, message: "the SQL cannot run: incomplete input"),
        Case(arguments: ["sql", "select nosuchcolumn from drinks"], status: 64, message: "no such column: nosuchcolumn"),
        Case(arguments: ["sql", "select 1", "--format", "xml"], status: 64, message: "xml"),
        Case(arguments: ["import", "/nonexistent/file.json"], status: 65, message: "cannot read /nonexistent/file.json"),
        Case(arguments: ["list", "--since", "whenever"], status: 65, message: "cannot use 'whenever'"),
        // A value a setting cannot take is a bad value, 64, said with what the setting takes.
        Case(arguments: ["config", "daily_limit_mg", "-5"], status: 64, message: "journal: daily_limit_mg cannot be '-5': -5 is out of range: use 1 to 2000 mg.\n"),
        Case(arguments: ["config", "bedtime", "25:00"], status: 64, message: "journal: bedtime cannot be '25:00': it must be a time of day, such as 23:00 or 11pm.\n"),
        Case(arguments: ["profile", "conditions", "pregnant"], status: 64,
             message: "journal: conditions cannot be 'pregnant': 'pregnant' is not a condition: they are smoker, oral-contraceptives, pregnancy-1, pregnancy-2, pregnancy-3, fluvoxamine.\n"),
        Case(arguments: ["config", "nosuchkey", "3"], status: 64, message: "'nosuchkey' is not a setting."),
        Case(arguments: ["profile", "daily_limit_mg", "300"], status: 64, message: "journal: daily_limit_mg is not part of the profile: set it with journal config daily_limit_mg.\n"),
    ]

    @Test(arguments: cases)
    func isRefusedClearlyAndChangesNothing(_ bad: Case) async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso", "--at", "9:00")
            try journal.run("add", "tea", "--at", "10:00")
            let before = try journal.fingerprint()
            let result = try journal.run(bad.arguments)
            #expect(result.status == bad.status, "\(result.stderr)")
            #expect(result.stderr.contains(bad.message), "\(result.stderr)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack trace"))
            // The journal's own messages end their sentences, the remedy's too.
            if result.stderr.hasPrefix("journal: ") {
                let last = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines).last
                #expect(last.map { ".?!".contains($0) } == true, "\(result.stderr)")
            }
            #expect(result.stdout.isEmpty || bad.status == 64)
            #expect(try journal.fingerprint() == before)
        }
    }

    /// The argument parser's mistakes speak as the journal's do: "journal: ...", the sentence ended,
    /// the usage after it.
    @Test(arguments: [
        (["add"], "journal: Missing expected argument '<drink> ...'\n", "Usage: journal add <drink> ..."),
        (["rm"], "journal: Missing expected argument '<id> ...'\n", "Usage: journal rm <id> ..."),
        (["list", "--limit", "x"], "journal: The value 'x' is invalid for '--limit <limit>'.\n", "Usage: journal list "),
        (["config", "bedtime", "1", "2"], "journal: A setting takes one value: quote one with spaces, such as \"11 pm\".\n", "Usage: journal config "),
    ])
    func theParsersMistakesSpeakInOneVoice(arguments: [String], first: String, usage: String) async throws {
        try await withTemporaryDirectory { home in
            let result = try JournalCLI(home: home).run(arguments)
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.hasPrefix(first) && result.stderr.contains("\n" + usage) && !result.stderr.contains("Error:"), "\(result.stderr)")
        }
    }

    @Test func anAmbiguousIDListsTheCandidates() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            var ids: [String] = []
            for minute in 0..<40 {
                let added = try #require(try journal.json("add", "tea", "--at", "\(minute + 1) min ago", "--json") as? [String: Any])
                ids.append(try #require(added["id"] as? String))
            }
            let groups = Dictionary(grouping: ids, by: { String($0.prefix(1)) })
            let (digit, sharing) = try #require(groups.first { $0.value.count > 1 })
            let before = try journal.fingerprint()
            let result = try journal.run("rm", digit)
            #expect(result.status == 65)
            #expect(result.stderr.contains("'\(digit)' starts the ids of \(sharing.count) drinks"))
            for id in sharing { #expect(result.stderr.contains(id)) }
            // The list ends with its last candidate, not a stray period.
            #expect(result.stderr.hasSuffix(" black-tea\n"), "\(result.stderr)")
            #expect(try journal.fingerprint() == before)
        }
    }

    /// `last` names the latest drink where an id goes, as Taskwarrior's +LATEST: the last line of
    /// `journal list`; in a journal without drinks it says so.
    @Test func lastIsTheLatestDrink() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            let none = try journal.run("rm", "last")
            #expect(none.status == 65 && none.stderr == "journal: the journal has no drink yet: journal add espresso records one.\n", "\(none.stderr)")
            try journal.run("add", "tea", "--at", "9:00")
            try journal.run("add", "espresso", "--at", "11:00")
            try journal.run("add", "cola", "--at", "10:00")
            let edited = try journal.run("edit", "last", "--mg", "80")
            #expect(edited.status == 0 && edited.stdout.hasPrefix("Changed espresso 80 mg at 2026-11-21 11:00"), "\(edited.stdout)\(edited.stderr)")
            let removed = try journal.run("rm", "LAST")
            #expect(removed.status == 0 && removed.stdout.hasPrefix("Deleted espresso 80 mg at 2026-11-21 11:00"), "\(removed.stdout)\(removed.stderr)")
            #expect(try journal.run("rm", "last").stdout.hasPrefix("Deleted soft-drink 22 mg at 2026-11-21 10:00"))
            #expect(try journal.run("undo").status == 0)
            #expect(try journal.run("list").stdout.contains("soft-drink"))
        }
    }

    @Test func aMalformedImportNamesThePlaceAndImportsNothing() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso", "--at", "9:00")
            let before = try journal.fingerprint()
            let file = """
                [{"id": "11111111-1111-4111-8111-111111111111", "drink": "espresso", "caffeine_mg": 64, "consumed_at": "2026-11-20T10:00:00Z"},
                 {"id": "22222222-2222-4222-8222-222222222222", "drink": "espresso", "caffeine_mg": "a lot", "consumed_at": "2026-11-20T11:00:00Z"}]
                """
            let result = try journal.run("import", "-", stdin: file)
            #expect(result.status == 65)
            #expect(result.stderr.contains("element 2: caffeine_mg 'a lot' is not a number. Nothing was imported."))
            #expect(try journal.fingerprint() == before)
        }
    }

    /// A file the journal cannot use: how to make it, and what the refusal says.
    struct UnusableFile: Sendable, CustomTestStringConvertible {
        let name: String
        let sqlite: String?
        let text: String?
        let message: String
        var testDescription: String { name }
    }

    static let unusableFiles = [
        UnusableFile(name: "future.db", sqlite: "create table t(x); pragma user_version = 999;", text: nil,
                     message: "written by a newer journal (schema version 999"),
        UnusableFile(name: "app.sqlite", sqlite: "create table notes(x); insert into notes values (1);", text: nil,
                     message: "another program's SQLite database"),
        UnusableFile(name: "notes.txt", sqlite: nil, text: String(repeating: "not a database\n", count: 300),
                     message: "is not a journal: it is not a SQLite database"),
    ]

    @Test(arguments: unusableFiles)
    func aFileTheJournalCannotUseIsRefusedAndUntouched(_ file: UnusableFile) async throws {
        try await withTemporaryDirectory { home in
            let path = home + "/" + file.name
            if let sql = file.sqlite {
                #expect(try ProcessRunner.run("/usr/bin/sqlite3", [path, sql], environment: [:]).status == 0)
            }
            if let text = file.text { try text.write(toFile: path, atomically: true, encoding: .utf8) }
            let before = fileBytes(path)
            let journal = JournalCLI(home: home)
            for command in [["add", "espresso"], ["status"], ["list"], ["sql", "select 1"]] {
                let result = try journal.run(["--db", path] + command)
                #expect(result.status == 65, "\(command): \(result.stderr)")
                #expect(result.stderr.contains(file.message), "\(result.stderr)")
            }
            #expect(fileBytes(path) == before)
        }
    }

    @Test func aFullDiskUnderAnExportIsAFailureNotASuccess() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso")
            let result = try ProcessRunner.run("/bin/sh", ["-c", "\"$0\" export > /dev/full", JournalCLI.binary], environment: journal.environment)
            #expect(result.status == 1)
            #expect(result.stderr.contains("could not write the output: No space left on device"))
        }
    }

    @Test func whatIfTimesDoNotStampTheSyncClock() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2030-01-01T12:00:00Z")
            try journal.run("add", "espresso")
            let clock = try journal.run("sql", "select consumed_at, hlc >> 16 from drinks", "--format", "csv").stdout
            let values = clock.split(whereSeparator: \.isNewline).dropFirst().first?.split(separator: ",").map { Double($0) ?? 0 } ?? []
            #expect(values.first == 1_893_499_200_000)
            #expect(abs((values.last ?? 0) / 1000 - Date().timeIntervalSince1970) < 600)
        }
    }

    @Test func aFolderWhereTheDatabaseShouldBeIsAClearFailure() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso")
            let folder = home + "/.local/share/journal"
            let result = try journal.run("--db", folder, "add", "espresso")
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("journal: cannot use \(folder)"))
        }
    }
}

import Foundation
import Testing
import TestSupport

/// The shells complete drink names and aliases, drinks' ids and device names from the journal itself,
/// through the scripts the program writes; a completion never makes or changes a journal.
@Suite(.onTestThreads) struct CompletionTests {
    /// What bash offers for `line` (the word being typed last), through the script the program wrote.
    func bashCompletes(_ line: [String], for journal: JournalCLI, in folder: String) throws -> [String] {
        let script = folder + "/complete.bash"
        let words = line.map { "'\($0)'" }.joined(separator: " ")
        try """
            source <(\(JournalCLI.binary) --generate-completion-script bash)
            COMP_WORDS=(\(words)); COMP_CWORD=\(line.count - 1); COMP_LINE=\"\(line.joined(separator: " "))\"; COMP_POINT=${#COMP_LINE}
            _journal journal '\(line.last ?? "")' '\(line.dropLast().last ?? "")'
            printf '%s\\n' "${COMPREPLY[@]}"
            """.write(toFile: script, atomically: true, encoding: .utf8)
        var environment = journal.environment
        environment["PATH"] = URL(fileURLWithPath: JournalCLI.binary).deletingLastPathComponent().path + ":/usr/bin:/bin"
        let result = try ProcessRunner.run("/bin/bash", [script], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func drinksIdsAndDevicesComeFromTheJournal() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let journal = joined.machines[0]
            try journal.run("drinks", "add", "oat-latte", "--mg", "130")
            try journal.run("drinks", "add", "oolong", "--mg", "40")
            let added = try #require(try journal.json("add", "oat-latte", "--json") as? [String: Any])
            let id = String(try #require(added["id"] as? String).prefix(8))
            #expect(try bashCompletes(["journal", "add", "o"], for: journal, in: folder) == ["oat-latte", "oolong"])
            #expect(try bashCompletes(["journal", "add", "te"], for: journal, in: folder) == ["tea"], "an alias")
            #expect(try bashCompletes(["journal", "drinks", "rm", ""], for: journal, in: folder) == ["oat-latte", "oolong"])
            #expect(try bashCompletes(["journal", "rm", String(id.prefix(3))], for: journal, in: folder).contains(id))
            #expect(try bashCompletes(["journal", "list", "--drink", "oa"], for: journal, in: folder) == ["oat-latte"])
            try joined.machines[1].run("sync", "rename", "garage")
            for machine in joined.machines + joined.machines { try machine.run("sync") }
            #expect(try bashCompletes(["journal", "sync", "revoke", "ga"], for: journal, in: folder) == ["garage"])
        }
    }

    /// Setting names after `config` and `profile`, conditions (after those typed) and models as values.
    @Test func settingsAndConditionsAreCompleted() async throws {
        try await withTemporaryDirectory { folder in
            let journal = JournalCLI(home: folder + "/home")
            func offered(_ line: String...) throws -> [String] { try bashCompletes(["journal"] + line, for: journal, in: folder) }
            let bedtime = try offered("config", "b")
            #expect(bedtime == ["bedtime"])
            let day = try offered("config", "da")
            #expect(day == ["daily_limit_mg", "day_starts_at"])
            let profile = try offered("profile", "")
            #expect(profile == ["conditions", "half_life_hours", "model", "weight_kg"])
            let pregnancy = try offered("profile", "conditions", "pr")
            #expect(pregnancy == ["pregnancy-1", "pregnancy-2", "pregnancy-3"])
            let second = try offered("profile", "conditions", "smoker,o")
            #expect(second == ["smoker,oral-contraceptives"])
            let models = try offered("config", "model", "")
            #expect(models == ["coffee-tracker", "personal"])
            #expect(!FileManager.default.fileExists(atPath: journal.databasePath))
        }
    }

    /// A device name another member chose is never handed to bash's compgen, which would run what
    /// `$(...)` holds in it.
    @Test func aNameThatWouldRunACommandIsNotOffered() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let journal = joined.machines[0]
            #expect(try joined.machines[1].run("sync", "rename", "$(touch $HOME/pwned)").status == 0)
            for machine in joined.machines + joined.machines { try machine.run("sync") }
            let offered = try bashCompletes(["journal", "sync", "revoke", ""], for: journal, in: folder)
            #expect(!offered.contains { $0.contains("touch") || $0.contains("pwned") }, "\(offered)")
            #expect(!FileManager.default.fileExists(atPath: journal.home + "/pwned"), "a completion ran a command")
        }
    }

    @Test func aCompletionMakesNoJournal() async throws {
        try await withTemporaryDirectory { folder in
            let journal = JournalCLI(home: folder + "/home")
            let drinks = try bashCompletes(["journal", "add", "espr"], for: journal, in: folder)
            #expect(drinks == ["espresso"])
            let ids = try bashCompletes(["journal", "rm", ""], for: journal, in: folder)
            #expect(ids.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: journal.databasePath))
        }
    }
}

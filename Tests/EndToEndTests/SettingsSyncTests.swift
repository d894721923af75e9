import Foundation
import Testing
import TestSupport

/// The settings that describe the person sync: one body gives one number on every machine. A value a
/// machine keeps to itself (`--local`, config.toml) wins there and is shown as its own.
@Suite(.onTestThreads) struct SettingsSyncTests {
    /// Two machines with the same drinks; the profile and the limit set on one. After a sync the other
    /// gives the same numbers, and says where they come from.
    @Test func settingsSetOnOneMachineGiveTheSameNumbersOnTheOther() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            try a.run("add", "coffee", "--at", "9:00")
            try a.run("add", "espresso", "--at", "13:00")
            #expect(try a.run("profile", "weight_kg", "70").status == 0)
            #expect(try a.run("profile", "conditions", "smoker").status == 0)
            #expect(try a.run("config", "daily_limit_mg", "300").status == 0)
            #expect(try a.run("config", "bedtime", "22:30").status == 0)
            #expect(try a.run("sync").status == 0)
            #expect(try b.run("sync").status == 0)
            let onA = try #require(try a.json("status", "--json") as? [String: Any])
            let onB = try #require(try b.json("status", "--json") as? [String: Any])
            for field in ["current_mg", "current_mg_per_l", "model", "half_life_hours", "daily_limit_mg", "remaining_today_mg", "bedtime", "sleep_ready_at", "room_mg"] {
                #expect("\(onA[field] ?? "none")" == "\(onB[field] ?? "none")", "\(field): \(onA[field] ?? "none") on a, \(onB[field] ?? "none") on b")
            }
            #expect(onB["model"] as? String == "personal" && onB["daily_limit_mg"] as? Double == 300)
            let config = try b.run("config").stdout
            #expect(config.contains("weight_kg           70 kg      synced"), "\(config)")
            #expect(config.contains("daily_limit_mg      300 mg     synced"), "\(config)")
            #expect(config.contains("sleep_threshold_mg  50 mg      default"), "\(config)")
            // Taken back on one machine, taken back on both.
            #expect(try b.run("profile", "--unset", "conditions").status == 0)
            #expect(try b.run("sync").status == 0)
            #expect(try a.run("sync").status == 0)
            let profile = try #require(try a.json("profile", "--json") as? [String: Any])
            #expect((profile["conditions"] as? [Any])?.isEmpty == true, "\(profile)")
        }
    }

    /// A machine's own value wins there, is shown as its own, and reaches no other machine; the
    /// person's value holds again there once it goes.
    @Test func aLocalValueWinsOnItsMachineAlone() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            #expect(try a.run("config", "bedtime", "23:00").status == 0)
            #expect(try b.run("config", "--local", "bedtime", "01:30").status == 0)
            for machine in [a, b, a, b] { #expect(try machine.run("sync").status == 0) }
            #expect(try a.run("config", "bedtime").stdout == "23:00\n")
            #expect(try b.run("config", "bedtime").stdout == "01:30\n")
            let source = try #require(try b.json("config", "--json") as? [String: Any])
            let bedtime = (source["settings"] as? [String: [String: Any]])?["bedtime"]
            #expect((bedtime?["source"] as? String)?.hasPrefix("this machine (") == true, "\(String(describing: bedtime))")
            #expect(try b.run("config", "--local", "--unset", "bedtime").status == 0)
            #expect(try b.run("config", "bedtime").stdout == "23:00\n")
        }
    }

    /// Two machines of an earlier release, each with its own config.toml: their first sync moves the
    /// settings into the journal, and both then give one number, the last mover's.
    @Test func settingsAnEarlierReleaseKeptInTheFileMoveIntoTheJournalOnce() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            try a.writeSettings("# mine\nweight_kg = 70\ndaily_limit_mg = 300\n")
            try b.writeSettings("daily_limit_mg = 400\n")
            // Journals of an earlier release, which kept no note of the move.
            for machine in [a, b] {
                let forget = try ProcessRunner.run("/usr/bin/sqlite3", [machine.databasePath, "delete from meta where key = 'settings_moved'"], environment: [:])
                #expect(forget.status == 0, "\(forget.stderr)")
            }
            try a.run("add", "coffee", "--at", "9:00")
            let moved = try a.run("sync")
            #expect(moved.status == 0 && moved.stdout.contains("Moved weight_kg and daily_limit_mg from \(a.home)/.config/journal/config.toml into the journal"), "\(moved.stdout)\(moved.stderr)")
            #expect(try String(contentsOfFile: a.home + "/.config/journal/config.toml", encoding: .utf8) == "# mine\n")
            #expect(try b.run("sync").stdout.contains("Moved daily_limit_mg"))
            #expect(try a.run("sync").status == 0)
            let onA = try #require(try a.json("status", "--json") as? [String: Any])
            let onB = try #require(try b.json("status", "--json") as? [String: Any])
            #expect(onA["daily_limit_mg"] as? Double == 400 && onB["daily_limit_mg"] as? Double == 400, "\(onA) \(onB)")
            #expect(onA["current_mg_per_l"] as? Double == onB["current_mg_per_l"] as? Double)
            #expect(onB["model"] as? String == "personal")
            // Once: a value put in the file since is this machine's own.
            try a.writeSettings("# mine\nbedtime = \"01:00\"\n")
            let again = try a.run("sync")
            #expect(!again.stdout.contains("Moved"), "\(again.stdout)")
            #expect(try a.run("config", "bedtime").stdout == "01:00\n")
            #expect(try b.run("config", "bedtime").stdout == "off\n")
        }
    }
}

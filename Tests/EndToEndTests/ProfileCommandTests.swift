import Foundation
import Testing
import TestSupport

/// `journal profile`: the model in effect and where each part of it comes from, and setting its parts.
@Suite(.onTestThreads) struct ProfileCommandTests {
    @Test func aProfileIsSetSeenAndCitedAndChangesTheModel() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let before = try #require(try journal.json("profile", "--json") as? [String: Any])
            #expect(before["model"] as? String == "coffee-tracker" && before["half_life_hours"] as? Double == 5)
            #expect(before["weight_kg"] is NSNull && (before["conditions"] as? [Any])?.isEmpty == true)

            let set = try journal.run("profile", "conditions", "oral-contraceptives")
            #expect(set.status == 0 && set.stdout.contains("conditions is now oral-contraceptives on every machine (it was none)"), "\(set.stderr)")
            #expect(set.stdout.contains("x 1.73      taking oral contraceptives (Patwardhan et al. 1980"), "\(set.stdout)")
            #expect(set.stdout.contains("Half-life     8.65 hours"), "\(set.stdout)")
            #expect(try journal.run("profile", "weight_kg", "70").status == 0)

            let after = try #require(try journal.json("profile", "--json") as? [String: Any])
            #expect(after["model"] as? String == "personal")
            #expect(after["half_life_hours"] as? Double == 8.65)
            #expect(after["weight_kg"] as? Double == 70)
            #expect(after["volume_l_per_kg"] as? Double == 0.56)
            let rates = try #require(after["absorption_per_hour"] as? [String: Double])
            #expect(rates == ["beverage": 6, "slow": 1.5])
            #expect(after["conditions"] as? [String] == ["oral-contraceptives"])
            let factors = try #require(after["condition_factors"] as? [[String: Any]])
            #expect(factors.count == 1 && factors[0]["name"] as? String == "oral-contraceptives" && factors[0]["factor"] as? Double == 1.73)
            #expect((factors[0]["source"] as? String)?.hasPrefix("Patwardhan et al. 1980") == true)

            // Each drink's form, which the personal model absorbs it by.
            let drinks = try #require(try journal.json("drinks", "--json") as? [[String: Any]])
            let forms = Dictionary(uniqueKeysWithValues: drinks.map { ($0["name"] as? String ?? "", $0["form"] as? String ?? "") })
            #expect(forms["espresso"] == "beverage" && forms["soft-drink"] == "slow" && forms["chocolate"] == "slow")

            // A drink of one's own takes a form; a change of form alone is a change, and undo takes it back.
            #expect(try journal.run("drinks", "add", "cocoa", "--mg", "12", "--form", "slow").stdout.contains("Defined cocoa: 12 mg (slow)."))
            #expect(try journal.run("drinks", "add", "cocoa", "--mg", "12").stdout.contains("Changed cocoa: 12 mg slow → 12 mg beverage."))
            _ = try journal.run("undo")
            let cocoa = (try journal.json("drinks", "--json") as? [[String: Any]] ?? []).first { $0["name"] as? String == "cocoa" }
            #expect(cocoa?["form"] as? String == "slow", "\(String(describing: cocoa))")

            // Every number of status comes from the model in effect.
            _ = try journal.run("add", "espresso", "--at", "15:20")
            let status = try #require(try journal.json("status", "--json") as? [String: Any])
            #expect(status["model"] as? String == "personal" && status["half_life_hours"] as? Double == 8.65)
            // ln(ka/ke) / (ka - ke) with ka = 6 and ke = ln 2 / 8.65: 43.7 minutes after 15:20.
            #expect(status["peaks_at"] as? String == "2026-11-21T16:04:00+00:00", "\(status)")
            #expect((status["current_mg_per_l"] as? Double ?? 0) > 0)
            let words = try journal.run("status").stdout
            #expect(words.contains("rising: peaks at 16:04") && words.contains("personal model, half-life 8.65 h"), "\(words)")
            // A slow drink of one's own peaks later: ln(1.5/ke) / (1.5 - ke), 2 h 4 min after 15:30.
            let slow = JournalCLI(home: home + "/slow", now: "2026-11-21T15:30:00Z")
            try slow.writeSettings("half_life_hours = 8.65\nmodel = \"personal\"\n")
            _ = try slow.run("drinks", "add", "cocoa", "--mg", "12", "--form", "slow")
            _ = try slow.run("add", "cocoa", "--at", "15:30")
            #expect((try slow.json("status", "--json") as? [String: Any])?["peaks_at"] as? String == "2026-11-21T17:34:00+00:00")

            // A typed-in half-life wins; the model can be chosen back.
            _ = try journal.run("profile", "half_life_hours", "6")
            _ = try journal.run("profile", "model", "coffee-tracker")
            let chosen = try #require(try journal.json("status", "--json") as? [String: Any])
            #expect(chosen["model"] as? String == "coffee-tracker" && chosen["half_life_hours"] as? Double == 6 && chosen["peaks_at"] is NSNull)
            #expect(try journal.run("profile", "--unset", "model").status == 0)
            #expect((try journal.json("profile", "--json") as? [String: Any])?["model"] as? String == "personal")
        }
    }

    /// The room is a beverage's: by the personal model it is not said in slow drinks, whose longer
    /// tail it would overstate; by Coffee Tracker's, where forms do not matter, it is.
    @Test func theRoomIsNotSaidInSlowDrinksByThePersonalModel() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            _ = try journal.run("add", "soft-drink", "--at", "15:00")
            try journal.writeSettings("bedtime = \"23:00\"\nmodel = \"personal\"\n")
            let personal = try journal.run("status").stdout
            #expect(personal.contains("Room left") && !personal.contains("soft-drink"), "\(personal)")
            try journal.writeSettings("bedtime = \"23:00\"\n")
            let coffeeTracker = try journal.run("status").stdout
            #expect(coffeeTracker.contains("× soft-drink (22 mg each)"), "\(coffeeTracker)")
        }
    }

    @Test func aBadPartIsRefusedAndTheFileStaysAsItWas() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            _ = try journal.run("profile", "weight_kg", "70")
            _ = try journal.run("profile", "--local", "model", "personal")
            let file = home + "/.config/journal/config.toml"
            let before = try String(contentsOfFile: file, encoding: .utf8)
            let journalBefore = try journal.run("sql", "select * from settings order by name", "--format", "csv").stdout
            for (arguments, words) in [
                (["profile", "conditions", "smoking"], "'smoking' is not a condition: they are smoker, oral-contraceptives"),
                (["profile", "conditions", "pregnancy-1,pregnancy-2"], "cannot both hold: list the trimester now"),
                (["profile", "weight_kg", "7000"], "7000 is out of range: use 20 to 400 kg"),
                (["profile", "model", "mine"], "'mine' is not a model"),
                (["profile", "bedtime", "23:00"], "bedtime is not part of the profile: set it with journal config bedtime"),
                (["profile", "weight_kg"], "Give the setting a value"),
            ] {
                let result = try journal.run(arguments)
                #expect(result.status != 0 && result.stderr.contains(words), "\(arguments): \(result.stderr)")
            }
            #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
            #expect(try journal.run("sql", "select * from settings order by name", "--format", "csv").stdout == journalBefore)
        }
    }
}

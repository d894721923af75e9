import Foundation
import Testing
import TestSupport

/// Settings, status with the limit and sleep time, stats, completions and colour, as a user runs them.
@Suite(.onTestThreads) struct InsightCommandTests {

    @Test func statusUsesTheConfiguredHalfLifeLimitAndThreshold() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "large-coffee", "--at", "8:00")
            try journal.run("add", "double-espresso", "--at", "13:00")
            try journal.run("add", "tea", "--at", "15:00")
            let defaults = try #require(try journal.json("status", "--json") as? [String: Any])
            #expect(defaults["half_life_hours"] as? Double == 5)
            #expect(defaults["daily_limit_mg"] as? Double == 400)
            #expect(defaults["remaining_today_mg"] as? Double == 33)

            try journal.writeSettings("# mine\nhalf_life_hours = 8\ndaily_limit_mg = 300\nsleep_threshold_mg = 25.5\n")
            let status = try #require(try journal.json("status", "--json") as? [String: Any])
            let level = 192 * pow(0.5, 7.5 / 8) + 128 * pow(0.5, 2.5 / 8) + 47 * pow(0.5, 0.5 / 8)
            #expect(abs((status["current_mg"] as? Double ?? 0) - level) < 0.01)
            #expect(status["half_life_hours"] as? Double == 8)
            #expect(status["daily_limit_mg"] as? Double == 300)
            #expect(status["remaining_today_mg"] as? Double == 0)
            #expect(status["sleep_threshold_mg"] as? Double == 25.5)
            // Now is 15:30 UTC; the level reaches 25.5 mg 8 * log2(level / 25.5) hours later, from the next minute.
            let hours = 8 * log2(level / 25.5)
            let ready = Date(timeIntervalSince1970: 1_795_275_000 + hours * 3600)
            let expected = Date(timeIntervalSince1970: (ready.timeIntervalSince1970 / 60).rounded(.up) * 60)
            let text = try #require(status["sleep_ready_at"] as? String)
            let parsed = try #require(ISO8601DateFormatter().date(from: text))
            #expect(abs(parsed.timeIntervalSince(expected)) <= 60, "\(text)")
            let plain = try journal.run("status").stdout
            #expect(plain.contains("Limit         67 mg over your 300 mg"))
            #expect(plain.contains("Sleep-ready   from tomorrow"))
            #expect(!plain.contains("│"), "no chart when stdout is not a terminal")
        }
    }

    /// A drink dated after now (entered under a `JOURNAL_NOW` ahead of the clock, or by a device whose
    /// clock is wrong) has not been had yet: no number of status or stats counts it, and status says
    /// how many are left out and when the first is. Once its time comes, it counts.
    @Test func drinksDatedInTheFutureAreLeftOutAndSaidSo() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso", "--at", "9:00")
            for now in ["2026-11-21T23:00:00Z", "2199-12-31T08:00:00Z"] {
                var ahead = journal
                ahead.environment["JOURNAL_NOW"] = now
                #expect(try ahead.run("add", "quad-espresso").status == 0)
            }
            let status = try #require(try journal.json("status", "--json", "--bedtime", "23:30") as? [String: Any])
            #expect(status["today_mg"] as? Double == 64)
            #expect(status["drinks_today"] as? Double == 1)
            #expect(status["sleep_ready_at"] is NSNull)
            #expect(status["state"] as? String == "sleep-ready")
            #expect((status["bedtime_mg"] as? Double ?? .infinity) < 10, "\(status)")
            let plain = try journal.run("status").stdout
            #expect(plain.contains("Today         64 mg in 1 drink"), "\(plain)")
            #expect(plain.contains("Sleep-ready   now"), "\(plain)")
            #expect(plain.contains("Left out      2 drinks dated in the future, the first at 23:00 (see journal list --since now)"), "\(plain)")
            let stats = try #require(try journal.json("stats", "--days", "1", "--json") as? [String: Any])
            #expect((stats["days"] as? [[String: Any]])?.map { $0["caffeine_mg"] as? Double } == [64], "\(stats)")

            var later = journal
            later.environment["JOURNAL_NOW"] = "2026-11-21T23:10:00Z"
            let then = try #require(try later.json("status", "--json") as? [String: Any])
            #expect(then["today_mg"] as? Double == 320)
            let words = try later.run("status").stdout
            #expect(words.contains("Left out      1 drink dated in the future, at 2199-12-31 08:00 (see journal list --since now)"), "\(words)")
        }
    }

    @Test func configShowsWhereEachSettingComesFrom() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            #expect(try journal.run("config").stdout.contains("half_life_hours     5 hours  default"))
            try journal.writeSettings("\n\ndaily_limit_mg = 250\n")
            let config = try #require(try journal.json("config", "--json") as? [String: Any])
            let settings = try #require(config["settings"] as? [String: [String: Any]])
            #expect(settings["daily_limit_mg"]?["value"] as? Double == 250)
            #expect((settings["daily_limit_mg"]?["source"] as? String)?.hasSuffix("config.toml, line 3)") == true)
            #expect(settings["half_life_hours"]?["source"] as? String == "default")
            #expect(try journal.run("config", "bedtime", "23:00").status == 0)
            let synced = try #require(try journal.json("config", "--json") as? [String: Any])
            #expect((synced["settings"] as? [String: [String: Any]])?["bedtime"]?["source"] as? String == "synced")
            let listed = try journal.run("config").stdout
            #expect(listed.contains("bedtime             23:00    synced"), "\(listed)")
        }
    }

    /// `journal config` with a broken line shows what the other lines set, then names the broken
    /// one (65), with no advice to run `journal config`.
    @Test func configShowsWhatTheOtherLinesSetAndNamesTheBrokenOne() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.writeSettings("daily_limit_mg = 300\nbedtime: 23:00\n")
            let shown = try journal.run("config")
            #expect(shown.status == 65, "\(shown.stderr)")
            #expect(shown.stdout.contains("daily_limit_mg      300 mg   this machine (~/.config/journal/config.toml, line 1)"), "\(shown.stdout)")
            #expect(shown.stderr == "journal: ~/.config/journal/config.toml, line 2, bedtime: this line is not a setting: a setting is written "
                + "bedtime = \"23:00\"; it sets nothing, and the other lines hold.\n", "\(shown.stderr)")
            let one = try journal.run("config", "daily_limit_mg")
            #expect(one.status == 65 && one.stdout == "300\n", "\(one.stdout)\(one.stderr)")
        }
    }

    @Test(arguments: [
        ("half_life_hours = 5\ndaily_limit = 300\n", "line 2, daily_limit: there is no such setting"),
        ("half_life_hours = \"slow\"\n", "line 1, half_life_hours: it must be a number of hours"),
        ("\nhalf_life_hours = 0.1\n", "line 2, half_life_hours: 0.1 is out of range: use 1 to 72 hours"),
        ("sleep_threshold_mg = -5\n", "line 1, sleep_threshold_mg: -5 is out of range"),
        ("daily_limit_mg = 400\ndaily_limit_mg = 300\n", "line 2"),
        ("[limits]\ndaily_limit_mg = 300\n", "line 1, limits: there is no such setting"),
        ("half_life_hours 5\n", "line 1"),
        // YAML's way: the fix is the line as TOML writes it.
        ("bedtime: 23:00\n", "line 1, bedtime: this line is not a setting: a setting is written bedtime = \"23:00\""),
        ("daily_limit_mg: 300\n", "line 1, daily_limit_mg: this line is not a setting: a setting is written daily_limit_mg = 300"),
    ])
    func aBadConfigFileIsAnErrorNamingTheLineNotADefault(text: String, message: String) async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso")
            try journal.writeSettings(text)
            for command in [["status"], ["config"], ["stats"]] {
                let result = try journal.run(command)
                #expect(result.status == 65, "\(command): \(result.stderr)")
                #expect(result.stderr.contains("config.toml, \(message)"), "\(result.stderr)")
            }
            // A drink is not held up by them: it is recorded, and the settings' trouble said.
            let added = try journal.run("add", "tea")
            #expect(added.status == 0 && added.stdout.hasPrefix("Added black-tea"))
            #expect(added.stderr.contains("the drink is recorded; the settings were not read (") && added.stderr.contains(message), "\(added.stderr)")
        }
    }

    @Test func statsCoversEveryDayOfTheRangeEmptyOnesIncluded() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "quad-espresso", "--at", "2 days ago 9am")
            try journal.run("add", "large-coffee", "--at", "2 days ago 1pm")
            try journal.run("add", "espresso", "--at", "5 days ago 10:00")
            try journal.run("add", "tea", "--at", "9:00")
            try journal.run("add", "espresso", "--at", "20 days ago 10:00")
            let stats = try #require(try journal.json("stats", "--days", "7", "--json") as? [String: Any])
            let days = try #require(stats["days"] as? [[String: Any]])
            #expect(days.map { $0["date"] as? String } == (15...21).map { "2026-11-\($0)" })
            #expect(days.map { $0["caffeine_mg"] as? Double } == [0, 64, 0, 0, 448, 0, 47])
            #expect(days.map { $0["drinks"] as? Double } == [0, 1, 0, 0, 2, 0, 1])
            #expect(stats["average_mg"] as? Double == 79.86)
            #expect(stats["days_over_limit"] as? Double == 1)
            let drinks = try #require(stats["drinks"] as? [[String: Any]])
            #expect(drinks.first?["drink"] as? String == "quad-espresso")
            #expect(drinks.first?["share"] as? Double == 0.458)
            let text = try journal.run("stats", "--days", "7").stdout
            #expect(text.split(separator: "\n").filter { $0.hasPrefix("Sun ") || $0.hasPrefix("Mon ") || $0.hasPrefix("Wed ") }.count == 3)
            #expect(text.contains("Average 80 mg a day; 1 of 7 days over the limit"))
            #expect(try journal.run("stats", "--days", "0").status == 64)
        }
    }

    /// A journal begun in the week averages over the days since its first drink, not over the days
    /// before it had one; an empty one has no average.
    @Test func theAverageStartsAtTheFirstDrink() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            #expect(try journal.run("stats").stdout.contains("No drinks yet: the average starts at the first."))
            try journal.run("add", "large-coffee", "--at", "9:00")
            try journal.run("add", "black-tea", "--at", "10:00")
            let today = try #require(try journal.json("stats", "--json") as? [String: Any])
            #expect(today["average_mg"] as? Double == 239 && today["average_days"] as? Double == 1, "\(today)")
            #expect(try journal.run("stats").stdout.contains(
                "Average 239 mg a day over the 1 day since the first drink (2026-11-21); 0 of 1 day over the limit"))
            try journal.run("add", "quad-espresso", "--at", "2 days ago 9am")
            try journal.run("add", "large-coffee", "--at", "2 days ago 1pm")
            let three = try #require(try journal.json("stats", "--json") as? [String: Any])
            #expect(three["average_mg"] as? Double == 229 && three["average_days"] as? Double == 3, "\(three)")
            #expect(three["days_over_limit"] as? Double == 1, "\(three)")
            #expect(try journal.run("stats").stdout.contains(
                "Average 229 mg a day over the 3 days since the first drink (2026-11-19); 1 of 3 days over the limit"))
            // A first drink before the run: every day of it counts.
            try journal.run("add", "espresso", "--at", "20 days ago 10:00")
            let week = try #require(try journal.json("stats", "--json") as? [String: Any])
            #expect(week["average_days"] as? Double == 7, "\(week)")
            #expect(try journal.run("stats").stdout.contains("Average 98 mg a day; 1 of 7 days over the limit"))
        }
    }

    /// A drink of one's own by the name of one the catalog gained later (an earlier journal's latte)
    /// keeps its name and its caffeine: it is the one `add latte` means, until it is removed; a new
    /// one by that name is refused.
    @Test func anOwnDrinkKeepsANameTheCatalogGainedLater() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            let refused = try journal.run("drinks", "add", "latte", "--mg", "130")
            #expect(refused.status == 64 && refused.stderr.contains("'latte' is a built-in drink"), "\(refused.stderr)")
            // What an earlier version exported of a latte of one's own.
            let export = """
                [{"id": "6f1c2a44-3b1e-4c8a-9a55-0d1e2f3a4b5c", "drink": "latte", "caffeine_mg": 130,
                  "consumed_at": "2026-11-20T08:00:00Z", "drink_serving_mg": 130}]
                """
            #expect(try journal.run(["import", "-"], stdin: export).status == 0)
            #expect(try journal.run("add", "latte").stdout.hasPrefix("Added latte 130 mg"))
            let own = try #require(try journal.json("drinks", "--json") as? [[String: Any]]).filter { $0["name"] as? String == "latte" }
            #expect(own.map { $0["custom"] as? Bool } == [false, true], "\(own)")
            #expect(try journal.run("drinks", "add", "latte", "--mg", "140").stdout.contains("140"))
            #expect(try journal.run("add", "latte").stdout.hasPrefix("Added latte 140 mg"))
            #expect(try journal.run("drinks", "rm", "latte").status == 0)
            #expect(try journal.run("add", "latte").stdout.hasPrefix("Added latte 150 mg"))
            let builtIn = try journal.run("drinks", "rm", "latte")
            #expect(builtIn.status == 64, "\(builtIn.stderr)")
        }
    }

    @Test func anExportWithARemovedCustomDrinkImportsBack() async throws {
        try await withTemporaryDirectory { folder in
            let journal = JournalCLI(home: folder + "/a")
            try journal.run("drinks", "add", "chai", "--mg", "40")
            try journal.run("add", "chai", "--at", "9:00")
            let export = try journal.run("export").stdout
            try journal.run("drinks", "rm", "chai")
            // The export carries the drink of one's own it needs: a fresh journal learns it.
            for format in ["json", "csv"] {
                let fresh = JournalCLI(home: folder + "/fresh-" + format)
                let exported = try journal.run("export", "--format", format).stdout
                let elsewhere = try fresh.run(["import", "-"], stdin: exported)
                #expect(elsewhere.stdout == "Imported 1 drink.\n", "\(elsewhere.stderr)")
                #expect(try fresh.run("drinks").stdout.contains("chai"))
                #expect(try fresh.run("add", "chai").status == 0)
            }
            // Without the definition, an unknown drink is still refused with the way to define it.
            let bare = export.replacingOccurrences(of: ",\n    \"drink_serving_mg\" : 40", with: "")
                .replacingOccurrences(of: "\"drink_serving_mg\": 40", with: "")
            #expect(!bare.contains("drink_serving_mg"), "\(bare)")
            let refused = try JournalCLI(home: folder + "/b").run(["import", "-"], stdin: bare)
            #expect(refused.status == 65 && refused.stderr.contains("journal drinks add NAME --mg N"), "\(refused.stderr)")
            let again = JournalCLI(home: folder + "/a")
            let copy = try again.run(["import", "-"], stdin: export)
            #expect(copy.stdout == "Imported 0 drinks (1 already in the journal).\n", "\(copy.stderr)")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsCoverTheCommands(shell: String) async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let result = try journal.run("--generate-completion-script", shell)
            #expect(result.status == 0)
            // Every command and subcommand the binary defines, as its own help describes them.
            let commands = try journal.commandPaths()
            #expect(commands.contains(["sync", "new-device"]) && commands.contains(["drinks", "rm"]) && commands.count > 15)
            for path in commands {
                let marker = shell == "fish" ? "\"journal \(path.joined(separator: " "))\"" : "_journal_\(path.joined(separator: "_"))()"
                #expect(result.stdout.contains(marker), "\(shell) completion lacks \(path.joined(separator: " "))")
            }
        }
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "double-espresso", "--at", "14:00")
            func onTerminal(_ extra: [String: String]) throws -> String {
                var environment = journal.environment
                for (key, value) in extra { environment[key] = value }
                environment["TERM"] = "xterm"
                // `script` gives the command a pseudo-terminal, as an interactive shell would.
                return try ProcessRunner.run("/usr/bin/script", ["-qec", "\(JournalCLI.binary) status", "/dev/null"], environment: environment).stdout
            }
            let coloured = try onTerminal([:])
            #expect(coloured.contains("\u{1B}["))
            #expect(coloured.contains("50 mg sleep"), "the chart is drawn on a terminal")
            let plain = try onTerminal(["NO_COLOR": "1"])
            #expect(!plain.contains("\u{1B}["))
            #expect(plain.contains("50 mg sleep"))
            #expect(!(try journal.run("status").stdout.contains("\u{1B}[")))
        }
    }
}

/// `journal config KEY VALUE` and `--unset`, as git config: one line of the file changed, checked as
/// the file is, and said with what it was.
@Suite(.onTestThreads) struct ConfigCommandTests {
    @Test func configSetsShowsAndUnsetsASetting() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            #expect(try journal.run("config", "bedtime").stdout == "off\n")
            let set = try journal.run("config", "bedtime", "11pm")
            #expect(set.status == 0 && set.stdout == "bedtime is now 23:00 on every machine (it was off).\n", "\(set.stdout)\(set.stderr)")
            #expect(try journal.run("config", "bedtime").stdout == "23:00\n")
            #expect(try journal.run("status").stdout.contains("Bedtime "), "status reads what config wrote")
            let file = home + "/.config/journal/config.toml"
            #expect(!FileManager.default.fileExists(atPath: file), "a setting for every machine is the journal's, not the file's")
            // This machine's own value is the file's, and wins here.
            let local = try journal.run("config", "--local", "daily-limit-mg", "300")
            #expect(local.stdout == "daily_limit_mg is now 300 on this machine alone (it was 400), in ~/.config/journal/config.toml.\n", "\(local.stdout)")
            #expect(try journal.run("config").stdout.contains("this machine (~/.config/journal/config.toml, line 1)"))
            #expect(try journal.run("config", "--local", "bedtime", "01:00").status == 0)
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "daily_limit_mg = 300\nbedtime = \"01:00\"\n")
            #expect(try journal.run("config", "bedtime").stdout == "01:00\n")
            let back = try journal.run("config", "--local", "--unset", "bedtime")
            #expect(back.stdout == "bedtime is 23:00 here again, as on the other machines (it was 01:00).\n", "\(back.stdout)")
            let unset = try journal.run("config", "--unset", "bedtime")
            #expect(unset.stdout == "bedtime is off again on every machine, its default (it was 23:00).\n", "\(unset.stdout)")
            // Set for every machine, a value this machine kept to itself goes: it would hide it here.
            let everywhere = try journal.run("config", "daily_limit_mg", "350")
            #expect(everywhere.stdout == "daily_limit_mg is now 350 on every machine (it was 300).\n", "\(everywhere.stdout)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "")
            #expect(try journal.run("config", "--local", "daily_limit_mg", "300").status == 0)
            // Refused in words, and the file stays as it was.
            let unknown = try journal.run("config", "bedtim", "23:00")
            #expect(unknown.status == 64 && unknown.stderr.contains("'bedtim' is not a setting. Did you mean 'bedtime'?"), "\(unknown.stderr)")
            let range = try journal.run("config", "daily_limit_mg", "9000")
            #expect(range.status == 64 && range.stderr.contains("daily_limit_mg cannot be '9000': 9000 is out of range"), "\(range.stderr)")
            let time = try journal.run("config", "bedtime", "25:00")
            #expect(time.status == 64 && time.stderr.contains("it must be a time of day"), "\(time.stderr)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "daily_limit_mg = 300\n")
        }
    }

    /// A settings file that is a link (a dotfiles manager's) is changed where it leads, and keeps
    /// its permissions; the link stays.
    @Test func aLinkedSettingsFileStaysALink() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let dotfiles = home + "/dotfiles/config.toml"
            try FileManager.default.createDirectory(atPath: home + "/dotfiles", withIntermediateDirectories: true)
            try "# mine\n".write(toFile: dotfiles, atomically: true, encoding: .utf8)
            #expect(chmod(dotfiles, 0o600) == 0)
            try FileManager.default.createDirectory(atPath: home + "/.config/journal", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: home + "/.config/journal/config.toml", withDestinationPath: dotfiles)
            #expect(try journal.run("config", "--local", "bedtime", "23:00").status == 0)
            let link = try FileManager.default.destinationOfSymbolicLink(atPath: home + "/.config/journal/config.toml")
            #expect(link == dotfiles)
            #expect(try String(contentsOfFile: dotfiles, encoding: .utf8) == "# mine\nbedtime = \"23:00\"\n")
            #expect(try permissions(dotfiles) == 0o600)
        }
    }
}

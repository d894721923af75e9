import Foundation
import Testing
import TestSupport

/// `journal import --from sleep-csv`: samples of any tracker become nights by the documented rules,
/// and every line or night that cannot be taken is named, with nothing a terminal would act on.
@Suite(.onTestThreads) struct SleepImportTests {
    func nights(_ machine: JournalCLI) throws -> [String: [String: Any]] {
        let list = (try machine.json("sleep", "--all", "--json") as? [String: Any])?["nights"] as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["night"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    static let samples = """
        start,end,stage,source
        2026-11-10T22:00:00Z,2026-11-11T06:00:00Z,in_bed,Phone
        2026-11-10T22:30:00Z,2026-11-11T06:00:00Z,asleep,Phone
        2026-11-10T22:20:00Z,2026-11-11T01:00:00Z,core,Watch
        2026-11-11T01:00:00Z,2026-11-11T01:02:00Z,awake,Watch
        2026-11-11T01:02:00Z,2026-11-11T03:00:00Z,deep,Watch
        2026-11-11T03:04:00Z,2026-11-11T04:00:00Z,rem,Watch
        2026-11-11T04:10:00Z,2026-11-11T06:30:00Z,core,Watch
        2026-11-11T17:59:00Z,2026-11-11T20:58:00Z,asleep,Watch
        2026-11-12T13:00:00Z,2026-11-12T16:00:00Z,asleep,Watch
        2026-11-13T00:40:00Z,2026-11-13T07:00:00Z,asleep,Watch
        2026-11-14T23:00:00+01:00,2026-11-15T06:00:00+01:00,asleep,Ring
        2026-11-14T22:00:00Z,2026-11-14T22:30:00Z,asleep,Watch
        2026-11-15T12:30:00Z,2026-11-15T13:30:00Z,asleep,Watch
        2026-11-15T14:40:00Z,2026-11-15T15:10:00Z,asleep,Watch

        """

    /// A file is recognised by its first bytes: a sleep CSV without --from is imported as one; a file
    /// given with the wrong --from is said as what it is, with the command that reads it.
    @Test func aFileIsTakenForWhatItIs() async throws {
        try await withTemporaryDirectory { folder in
            let machine = JournalCLI(home: folder + "/home", now: "2026-11-20T12:00:00Z")
            try Self.samples.write(toFile: folder + "/sleep.csv", atomically: true, encoding: .utf8)
            let imported = try machine.run("import", folder + "/sleep.csv")
            #expect(imported.stdout == "Imported 3 nights from the sleep CSV (3 naps left out).\n", "\(imported.stdout)\(imported.stderr)")
            var export = HealthExport()
            export.samples = [HealthExport.sample(day: 1)]
            try export.writeZip(to: folder + "/export.zip")
            let zip = try machine.run("import", "--from", "sleep-csv", folder + "/export.zip")
            #expect(zip.status == 64, "\(zip.stderr)")
            #expect(zip.stderr == "journal: \(folder)/export.zip is a zip archive (the Health app's export.zip), which --from sleep-csv does not "
                + "read: import it with journal import --from apple-health \(folder)/export.zip.\n", "\(zip.stderr)")
            try "date,score,total_sleep\n2026-11-19,82,27000\n".write(toFile: folder + "/oura.csv", atomically: true, encoding: .utf8)
            for arguments in [["--from", "apple-health"], []] {
                let oura = try machine.run(["import"] + arguments + [folder + "/oura.csv"])
                #expect(oura.status == 64, "\(oura.stderr)")
                #expect(oura.stderr.contains("oura.csv is text whose first line is 'date,score,total_sleep', which "), "\(oura.stderr)")
                #expect(oura.stderr.contains("--from sleep-csv a sleep tracker's samples as start,end,stage lines."), "\(oura.stderr)")
            }
            let journal = try machine.run("import", "--from", "apple-health", folder + "/sleep.csv")
            #expect(journal.status == 64 && journal.stderr.contains("import it with journal import --from sleep-csv "), "\(journal.stderr)")
        }
    }

    @Test func theRulesOfANight() async throws {
        try await withTemporaryDirectory { folder in
            let machine = JournalCLI(home: folder + "/home", now: "2026-11-20T12:00:00Z")
            try Self.samples.write(toFile: folder + "/sleep.csv", atomically: true, encoding: .utf8)
            let result = try machine.run("import", "--from", "sleep-csv", folder + "/sleep.csv")
            #expect(result.status == 0, "\(result.stderr)")
            // Naps: 17:59 for 2 h 59 (11-11, which has nothing else), and on 11-15 two sessions an hour
            // and ten minutes apart. 13:00 for 3 hours is no nap.
            #expect(result.stdout == "Imported 3 nights from the sleep CSV (3 naps left out).\n", "\(result.stdout)")
            let found = try nights(machine)
            #expect(found.keys.sorted() == ["2026-11-10", "2026-11-12", "2026-11-14"], "\(found.keys.sorted())")
            // 11-10: the watch slept more (7 h 54 against the phone's 7 h 30), so the night is its, with
            // the phone's lights-out; awakenings: the awake sample at 01:00 and the 10-minute gap at
            // 04:00, not the 4-minute one at 03:00.
            let tenth = try #require(found["2026-11-10"])
            #expect(tenth["source"] as? String == "Watch" && tenth["in_bed_at"] as? String == "2026-11-10T22:00:00+00:00", "\(tenth)")
            #expect(tenth["asleep_at"] as? String == "2026-11-10T22:20:00+00:00" && tenth["latency_min"] as? Double == 20, "\(tenth)")
            #expect(tenth["woke_at"] as? String == "2026-11-11T06:30:00+00:00", "\(tenth)")
            #expect(tenth["asleep_min"] as? Double == 160 + 118 + 56 + 140 && tenth["awakenings"] as? Int == 2, "\(tenth)")
            // 11-12: the sleep from 00:40 on 11-13 is the same night's; no in-bed sample anywhere, so
            // lights-out and the time to fall asleep are unknown (not 0 min).
            let twelfth = try #require(found["2026-11-12"])
            #expect(twelfth["in_bed_at"] is NSNull && twelfth["latency_min"] is NSNull, "\(twelfth)")
            #expect(twelfth["asleep_at"] as? String == "2026-11-12T13:00:00+00:00", "\(twelfth)")
            #expect(twelfth["asleep_min"] as? Double == 180 + 380 && twelfth["awakenings"] as? Int == 1, "\(twelfth)")
            // 11-14: the ring's 7 hours win over the watch's half hour; its offset is read.
            #expect(found["2026-11-14"]?["source"] as? String == "Ring" && found["2026-11-14"]?["asleep_at"] as? String == "2026-11-14T22:00:00+00:00")
            // Again: nothing changes.
            #expect(try machine.run("import", "--from", "sleep-csv", folder + "/sleep.csv").stdout.contains("3 already in the journal"))
        }
    }

    /// With a source named, each night is that source's, and a night it did not record is said.
    @Test func aNamedSourceIsTheOnlyOne() async throws {
        try await withTemporaryDirectory { folder in
            let machine = JournalCLI(home: folder + "/home", now: "2026-11-20T12:00:00Z")
            try Self.samples.write(toFile: folder + "/sleep.csv", atomically: true, encoding: .utf8)
            let result = try machine.run("import", "--from", "sleep-csv", folder + "/sleep.csv", "--sleep-source", "phone")
            #expect(result.stdout.contains("Imported 1 night from the sleep CSV"), "\(result.stdout)")
            #expect(result.stderr.contains("left out, the night of 2026-11-12: 'phone' recorded no sleep that night"), "\(result.stderr)")
            let tenth = try #require(try nights(machine)["2026-11-10"])
            #expect(tenth["source"] as? String == "Phone" && tenth["latency_min"] as? Double == 30 && tenth["awakenings"] as? Int == 0)
        }
    }

    /// A sleep that runs past noon stays one night, dated by its start; a night still to end is not
    /// imported; an offset of hours alone is an offset.
    @Test func aLongMorningIsOneNightAndTheFutureNone() async throws {
        try await withTemporaryDirectory { folder in
            let machine = JournalCLI(home: folder + "/home", now: "2026-11-20T12:00:00Z")
            let csv = """
                start,end,stage
                2026-11-14T02:00:00+01,2026-11-14T12:40:00+01,asleep
                2026-11-20T11:00:00Z,2026-11-20T13:30:00Z,asleep

                """
            try csv.write(toFile: folder + "/sleep.csv", atomically: true, encoding: .utf8)
            let result = try machine.run("import", "--from", "sleep-csv", folder + "/sleep.csv")
            #expect(result.stdout.hasPrefix("Imported 1 night"), "\(result.stdout)")
            #expect(result.stderr.contains("left out, the night of 2026-11-19: it ends in the future"), "\(result.stderr)")
            let night = try #require(try nights(machine)["2026-11-13"])
            #expect(night["woke_at"] as? String == "2026-11-14T11:40:00+00:00" && night["asleep_min"] as? Double == 640, "\(night)")
        }
    }

    /// A million samples of a night, each of its own source, is read in seconds: choosing a source and
    /// counting awakenings sort once rather than compare every sample with every other.
    @Test func manySourcesInOneNightDoNotHang() async throws {
        try await withTemporaryDirectory { folder in
            let machine = JournalCLI(home: folder + "/home", now: "2026-11-20T12:00:00Z")
            // Half-minute samples over ten hours from 20:00 on 11-19, alternately asleep and awake.
            var csv = "start,end,stage,source\n"
            for index in 0..<100_000 {
                let minute = index % 600
                let (day, hour) = (19 + (20 + minute / 60) / 24, (20 + minute / 60) % 24)
                let at = String(format: "2026-11-%02dT%02d:%02d", day, hour, minute % 60)
                csv += "\(at):00Z,\(at):30Z,\(index % 2 == 0 ? "core" : "awake"),s\(index)\n"
            }
            try csv.write(toFile: folder + "/many.csv", atomically: true, encoding: .utf8)
            let result = try machine.run("import", "--from", "sleep-csv", folder + "/many.csv")
            #expect(result.status == 0 && result.stdout.hasPrefix("Imported 1 night"), "\(result.stdout) \(result.stderr)")
        }
    }

    /// A file crafted against the terminal, or simply wrong: each bad line is named with its problem,
    /// escapes shown, never sent; what is good still imports; a file that is no sleep CSV is refused.
    @Test func badLinesAreNamedAndLeftOut() async throws {
        try await withTemporaryDirectory { folder in
            let machine = JournalCLI(home: folder + "/home", now: "2026-11-20T12:00:00Z")
            let csv = "\u{FEFF}start,end,stage,source\r\n"
                + "2026-11-10T22:00:00Z,2026-11-11T06:00:00Z,asleep,Watch\r\n"
                + "2026-11-11T22:00:00,2026-11-12T06:00:00,asleep,Watch\r\n"
                + "2026-11-12T22:00:00Z,2026-11-13T06:00:00Z,\u{1B}[31mdeep,Watch\r\n"
                + "2026-11-13T22:00:00Z,2026-11-14T06:00:00Z,asleep,\u{1B}]0;owned\u{07}\r\n"
                + "2026-11-14T22:00:00Z,2026-11-14T21:00:00Z,asleep,Watch\r\n"
                + "2026-11-15T22:00:00Z,2026-11-17T06:00:00Z,asleep,Watch\r\n"
                + "2026-11-16T22:00:00Z,asleep\r\n"
            try csv.write(toFile: folder + "/sleep.csv", atomically: true, encoding: .utf8)
            let result = try machine.run("import", "--from", "sleep-csv", folder + "/sleep.csv")
            #expect(result.status == 0 && result.stdout.hasPrefix("Imported 1 night"), "\(result.stdout) \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}"), "\(result.stderr)")
            for expected in [
                "line 3: its times must be ISO 8601 with their offset", "line 4: '\\e[31mdeep' is not a stage",
                "line 5: its source must be 1 to 100 characters, none of them a control", "line 6: it must end after it starts",
                "line 7: it must end after it starts, within 24 hours", "line 8: it has 2 fields where the header has 4",
            ] {
                #expect(result.stderr.contains(expected), "\(expected): \(result.stderr)")
            }
            try "when,stage\n".write(toFile: folder + "/other.csv", atomically: true, encoding: .utf8)
            let refused = try machine.run("import", "--from", "sleep-csv", folder + "/other.csv")
            #expect(refused.status == 65 && refused.stderr.contains("its header must name the columns start, end and stage"), "\(refused.stderr)")
            #expect(try nights(machine).count == 1)
        }
    }
}

import Foundation
import Testing
import TestSupport
@preconcurrency import ZIPFoundation

/// `journal import --from apple-health`: an export of the Health app, zipped or not, becomes drinks,
/// once, with every sample it cannot take said by its line.
@Suite(.onTestThreads) struct AppleHealthImportTests {
    func drinks(_ machine: JournalCLI) throws -> [[String: Any]] {
        try machine.json("list", "--all", "--json") as? [[String: Any]] ?? []
    }

    @Test func samplesBecomeDrinksOfTheirKindInEveryUnit() async throws {
        try await withTemporaryDirectory { folder in
            var export = HealthExport()
            export.samples = [
                HealthExport.sample(day: 1), // Coffee Tracker's espresso
                HealthExport.sample(day: 1, minute: 60, source: "Caffeine App", unit: "g", value: "0.128"),
                HealthExport.sample(day: 1, minute: 120, source: "Caffeine App", unit: "mcg", value: "95000"),
                HealthExport.sample(day: 2, minute: 0, source: "Caffeine App", unit: "oz", value: "1"),
                HealthExport.sample(day: 2, minute: 30, source: "Caffeine App", value: "5000"),
                HealthExport.sample(day: 2, minute: 60, source: "Caffeine App", value: "abc"),
            ]
            export.samples[5].start = "last tuesday"
            try export.writeZip(to: folder + "/export.zip")
            let machine = JournalCLI(home: folder + "/home")
            let result = try machine.run("import", "--from", "apple-health", folder + "/export.zip")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "Imported 3 drinks from Apple Health; 6 caffeine samples in 18 records, 3 skipped.\n", "\(result.stdout)")
            #expect(result.stderr.contains("skipped line \(export.line(ofSample: 3)): the unit 'oz' is not one HealthKit writes"), "\(result.stderr)")
            #expect(result.stderr.contains("skipped line \(export.line(ofSample: 4)): caffeine of 5000 mg"), "\(result.stderr)")
            #expect(result.stderr.contains("skipped line \(export.line(ofSample: 5)):"), "\(result.stderr)")
            let kinds = try drinks(machine).map { "\($0["drink"] ?? "") \($0["caffeine_mg"] ?? "") \($0["consumed_at"] ?? "")" }
            #expect(kinds == [
                "espresso 64 2024-03-01T07:00:00+00:00", "double-espresso 128 2024-03-01T08:00:00+00:00",
                "health-caffeine-app 95 2024-03-01T09:00:00+00:00",
            ], "\(kinds)")
            #expect(try machine.run("drinks").stdout.contains("health-caffeine-app  95"))
        }
    }

    /// Coffee Tracker's figures are its drinks whatever the catalog says today (its energy drink is
    /// 29 mg, the catalog's can 80); an app's amounts that no such figure has are each kept, the app's
    /// drink, and none is taken for a drink the catalog gained later (150 mg is no latte).
    @Test func eachSampleKeepsItsAmountAndCoffeeTrackersFiguresTheirDrink() async throws {
        try await withTemporaryDirectory { folder in
            var export = HealthExport()
            export.samples = [
                HealthExport.sample(day: 1, value: "29"),
                HealthExport.sample(day: 1, minute: 60, source: "Caffeine App", value: "80"),
                HealthExport.sample(day: 1, minute: 120, source: "Caffeine App", value: "150"),
                HealthExport.sample(day: 2, minute: 0, source: "Caffeine App", value: "95"),
            ]
            try export.writeZip(to: folder + "/export.zip")
            let machine = JournalCLI(home: folder + "/home")
            let result = try machine.run("import", "--from", "apple-health", folder + "/export.zip")
            #expect(result.status == 0, "\(result.stderr)")
            let kinds = try drinks(machine).map { "\($0["drink"] ?? "") \($0["caffeine_mg"] ?? "")" }
            #expect(kinds == ["energy-drink 29", "health-caffeine-app 80", "health-caffeine-app 150", "health-caffeine-app 95"], "\(kinds)")
        }
    }

    @Test func importingAgainOrAnOverlappingLaterExportAddsEachSampleOnce() async throws {
        try await withTemporaryDirectory { folder in
            var first = HealthExport()
            first.samples = (1...5).map { HealthExport.sample(day: $0) }
            try first.writeZip(to: folder + "/march.zip")
            var later = HealthExport()
            later.samples = (3...8).map { HealthExport.sample(day: $0) }
            // The same sample written without a sync identifier is still the same sample.
            later.samples.append(HealthExport.Sample(source: "Other", value: "80", start: "2024-03-09 08:00:00 +0100"))
            later.samples.append(HealthExport.Sample(source: "Other", value: "80", start: "2024-03-09 08:00:00 +0100"))
            try String(later.xml).write(toFile: folder + "/export.xml", atomically: true, encoding: .utf8)
            let machine = JournalCLI(home: folder + "/home")
            #expect(try machine.run("import", "--from", "apple-health", folder + "/march.zip").stdout.hasPrefix("Imported 5 drinks"))
            let again = try machine.run("import", "--from", "apple-health", folder + "/march.zip")
            #expect(again.stdout.hasPrefix("Imported 0 drinks from Apple Health (5 already in the journal)"), "\(again.stdout)")
            let overlapping = try machine.run("import", "--from", "apple-health", folder + "/export.xml")
            #expect(overlapping.stdout.hasPrefix("Imported 4 drinks from Apple Health (4 already in the journal)"), "\(overlapping.stdout)")
            #expect(try drinks(machine).count == 9)
            // One undo takes back the whole last import.
            #expect(try machine.run("undo").status == 0)
            #expect(try drinks(machine).count == 5)
            // Imported again, the drinks undo removed are said as deleted here, and how to bring them back.
            let afterUndo = try machine.run("import", "--from", "apple-health", folder + "/export.xml")
            #expect(afterUndo.stdout.hasPrefix(
                "Imported 0 drinks from Apple Health (4 already in the journal; 4 deleted here, left deleted: --restore-deleted brings them back)"),
                "\(afterUndo.stdout)")
            let restored = try machine.run("import", "--from", "apple-health", "--restore-deleted", folder + "/export.xml")
            #expect(restored.stdout.hasPrefix("Imported 4 drinks from Apple Health (4 of them deleted here, brought back; 4 already"), "\(restored.stdout)")
            #expect(try drinks(machine).count == 9)
        }
    }

    /// An export given without --from is recognised, zip or XML, and imported; from stdin, which
    /// the Health import does not read, the command that does is said and nothing is imported.
    @Test func anExportWithoutFromIsRecognisedAndImported() async throws {
        try await withTemporaryDirectory { folder in
            var export = HealthExport()
            export.samples = [HealthExport.sample(day: 1)]
            try export.writeZip(to: folder + "/export.zip")
            try String(export.xml).write(toFile: folder + "/export.xml", atomically: true, encoding: .utf8)
            let machine = JournalCLI(home: folder + "/home")
            let piped = try machine.run(["import", "-"], stdin: String(export.xml))
            #expect(piped.status == 64 && piped.stderr.contains("save it as a file and import it with journal import --from apple-health FILE"),
                    "\(piped.stderr)")
            #expect(!FileManager.default.fileExists(atPath: machine.databasePath))
            for (file, said) in [("export.zip", "Imported 1 drink from Apple Health"), ("export.xml", "Imported 0 drinks from Apple Health")] {
                let result = try machine.run("import", folder + "/" + file)
                #expect(result.status == 0 && result.stdout.hasPrefix(said), "\(file): \(result.stdout)\(result.stderr)")
            }
            // A journal export whose note names HealthData is a journal export still.
            let writer = JournalCLI(home: folder + "/writer")
            try writer.run("add", "espresso", "--note", "<HealthData> test")
            let mine = folder + "/mine.json"
            try writer.run("export").stdout.write(toFile: mine, atomically: true, encoding: .utf8)
            #expect(try JournalCLI(home: folder + "/reader").run("import", mine).stdout == "Imported 1 drink.\n")
        }
    }

    @Test func oneAppsSamplesOrNothingWhenOneCannotBeADrink() async throws {
        try await withTemporaryDirectory { folder in
            var export = HealthExport()
            export.samples = [HealthExport.sample(day: 1), HealthExport.sample(day: 2, source: "Caffeine App", value: "80"),
                              HealthExport.sample(day: 3, source: "Caffeine App", value: "-4")]
            try export.writeZip(to: folder + "/export.zip")
            let machine = JournalCLI(home: folder + "/home")
            let refused = try machine.run("import", "--from", "apple-health", "--all-or-nothing", folder + "/export.zip")
            #expect(refused.status == 65)
            #expect(refused.stderr.contains("1 of 3 caffeine samples cannot be drinks, so nothing was imported"), "\(refused.stderr)")
            #expect(refused.stderr.contains("line \(export.line(ofSample: 2)):"))
            let made = FileManager.default.fileExists(atPath: machine.databasePath)
            #expect(try !made || drinks(machine).isEmpty)
            let one = try machine.run("import", "--from", "apple-health", "--source", "coffee tracker", folder + "/export.zip")
            #expect(one.stdout == "Imported 1 drink from Apple Health; 1 caffeine sample in 9 records, 2 of other apps left out.\n", "\(one.stdout)")
        }
    }

    /// What an export from outside can be: not a file, not a zip, damaged, malformed, not Health's, or
    /// crafted to make the parser read local files or expand entities without end.
    @Test func hostileOrBrokenExportsAreRefusedWithoutHarm() async throws {
        try await withTemporaryDirectory { folder in
            let machine = JournalCLI(home: folder + "/home")
            func refused(_ path: String, _ words: String) throws {
                let result = try machine.run("import", "--from", "apple-health", path)
                #expect(result.status == 65, "\(path): \(result.stdout)\(result.stderr)")
                #expect(result.stderr.contains(words), "\(path): \(result.stderr)")
                #expect(!result.stdout.contains("root:"), "a local file was read into the import")
            }
            mkfifo(folder + "/fifo", 0o600)
            try refused(folder + "/fifo", "is not a regular file")
            var export = HealthExport()
            export.samples = (1...30).map { HealthExport.sample(day: $0) }
            try export.writeZip(to: folder + "/good.zip")
            let zipped = try Data(contentsOf: URL(fileURLWithPath: folder + "/good.zip"))
            try zipped.prefix(zipped.count / 2).write(to: URL(fileURLWithPath: folder + "/truncated.zip"))
            try refused(folder + "/truncated.zip", "is damaged")
            var flipped = zipped
            flipped[200] ^= 0xFF
            try flipped.write(to: URL(fileURLWithPath: folder + "/flipped.zip"))
            try refused(folder + "/flipped.zip", "is damaged")
            try String(export.xml.dropLast(40)).write(toFile: folder + "/cut.xml", atomically: true, encoding: .utf8)
            try refused(folder + "/cut.xml", "is not well-formed XML")
            try "<notes><note>hi</note></notes>\n".write(toFile: folder + "/other.xml", atomically: true, encoding: .utf8)
            try refused(folder + "/other.xml", "is not an Apple Health export")
            var external = HealthExport()
            external.body = " <Record type=\"HKQuantityTypeIdentifierDietaryCaffeine\" sourceName=\"&xxe;\" unit=\"mg\" value=\"64\" "
                + "startDate=\"2024-03-01 08:00:00 +0100\" endDate=\"2024-03-01 08:00:00 +0100\"/>\n"
            let crafted = external.xml.replacingOccurrences(
                of: "]>", with: "<!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n]>")
            try crafted.write(toFile: folder + "/crafted.xml", atomically: true, encoding: .utf8)
            try refused(folder + "/crafted.xml", "is not well-formed XML")
            // A decoy declaration in a comment first: the real one must not get through behind it.
            let decoyed = crafted.replacingOccurrences(of: "<!DOCTYPE", with: "<!-- <!DOCTYPE x> -->\n<!DOCTYPE")
            try decoyed.write(toFile: folder + "/decoyed.xml", atomically: true, encoding: .utf8)
            try refused(folder + "/decoyed.xml", "is not well-formed XML")
            #expect(try drinks(machine).isEmpty)
        }
    }

    @Test func aLargeExportShowsItsProgressOnATerminal() async throws {
        try await withTemporaryDirectory { folder in
            var export = HealthExport()
            export.otherRecordsPerSample = 20
            export.samples = (0..<8000).map { HealthExport.sample(day: 1 + $0 / 700, minute: $0 % 700) }
            try export.writeZip(to: folder + "/export.zip")
            let machine = JournalCLI(home: folder + "/home")
            let command = "'\(ProcessRunner.executable("journal"))' import --from apple-health '\(folder)/export.zip'"
            let shown = try ProcessRunner.run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: machine.environment)
            #expect(shown.stdout.contains("Reading the export ["), "\(shown.stdout.suffix(300))")
            // The bar counts the zip's compressed bytes, which it reads, not the XML they inflate to.
            let archive = try Archive(url: URL(fileURLWithPath: folder + "/export.zip"), accessMode: .read)
            let compressed = try #require(archive.first { $0.path.hasSuffix("export.xml") }).compressedSize
            let kibibytes = Double(compressed) / 1024
            #expect(compressed < 1_000_000 && shown.stdout.contains(" of \(Int(kibibytes))"), "\(compressed): \(shown.stdout.suffix(300))")
            #expect(shown.stdout.contains(" KiB"), "\(shown.stdout.suffix(300))")
            #expect(shown.stdout.contains("\r\u{1B}[2KImported 8000 drinks from Apple Health"), "\(shown.stdout.suffix(300))")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// A Health sample is held to the rules of every way a drink comes in: an amount is a decimal number,
/// a time is not ahead of now; and one sample twice with two values is a conflict, said with both lines.
@Suite(.onTestThreads) struct AppleHealthValueTests {
    @Test func samplesOfLenientValuesFutureTimesOrConflictingTwinsAreSkippedByTheirLine() async throws {
        try await withTemporaryDirectory { folder in
            var export = HealthExport()
            var future = HealthExport.sample(day: 3)
            future.start = "2199-12-31 08:00:00 +0100"
            var twin = HealthExport.sample(day: 5)
            twin.value = "128"
            export.samples = [
                HealthExport.sample(day: 1, value: "0x40"), HealthExport.sample(day: 2, value: "-0"), future,
                HealthExport.sample(day: 4), HealthExport.sample(day: 5), twin,
            ]
            try export.writeZip(to: folder + "/export.zip")
            let machine = JournalCLI(home: folder + "/home")
            let result = try machine.run("import", "--from", "apple-health", folder + "/export.zip")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "Imported 2 drinks from Apple Health; 6 caffeine samples in 18 records, 4 skipped.\n", "\(result.stdout)")
            let lines = (0..<6).map { export.line(ofSample: $0) }
            for expected in [
                "skipped line \(lines[0]): the value '0x40' is not a decimal number",
                "skipped line \(lines[1]): the value '-0' is negative",
                "skipped line \(lines[2]): the start date '2199-12-31 08:00:00 +0100' is in the future",
                "skipped line \(lines[5]): the same sample as line \(lines[4]) (sync identifier Coffee Tracker-5-0) "
                    + "with another value; the first was kept",
            ] {
                #expect(result.stderr.contains(expected), "\(expected)\n\(result.stderr)")
            }
            #expect(!result.stderr.contains("already in the journal") && !result.stdout.contains("already in the journal"))
            let drinks = try machine.json("list", "--all", "--json") as? [[String: Any]] ?? []
            #expect(drinks.map { "\($0["drink"] ?? "") \($0["caffeine_mg"] ?? "")" } == ["espresso 64", "espresso 64"], "\(drinks)")
            #expect(try !machine.run("drinks").stdout.contains("health-coffee-tracker"))
        }
    }
}

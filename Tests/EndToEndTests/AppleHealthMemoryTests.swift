import Foundation
import Testing
import TestSupport

/// What an export holds does not decide how much memory the importer takes or how much it prints: a
/// skipped sample keeps no text, and a message quotes at most 80 characters of a value.
@Suite(.onTestThreads) struct AppleHealthMemoryTests {
    /// An export of `count` caffeine samples whose unit is `unitBytes` long, and one good sample.
    static func export(samples count: Int, unitBytes: Int) -> HealthExport {
        var export = HealthExport()
        export.otherRecordsPerSample = 0
        let unit = String(repeating: "m", count: unitBytes)
        export.samples = (0..<count).map { HealthExport.sample(day: 1 + $0 / 600, minute: $0 % 600, unit: unit) }
        export.samples.append(HealthExport.sample(day: 28))
        return export
    }

    @Test func aSkippedSampleIsQuotedInEightyCharactersWhateverItsSize() async throws {
        try await withTemporaryDirectory { folder in
            let export = Self.export(samples: 3, unitBytes: 9 << 20)
            try export.writeZip(to: folder + "/export.zip")
            let result = try JournalCLI(home: folder + "/home").run("import", "--from", "apple-health", folder + "/export.zip")
            #expect(result.status == 0, "\(result.stderr.prefix(500))")
            #expect(result.stdout == "Imported 1 drink from Apple Health; 4 caffeine samples in 4 records, 3 skipped.\n", "\(result.stdout)")
            #expect(result.stderr.utf8.count < 1000, "\(result.stderr.utf8.count) bytes: \(result.stderr.prefix(500))")
            let quoted = result.stderr.split(separator: "'").filter { $0.hasPrefix("mmm") }
            #expect(quoted.count == 3 && quoted.allSatisfy { $0.count <= 81 }, "\(result.stderr)")
            #expect(result.stderr.contains("skipped line \(export.line(ofSample: 0)): the unit '"), "\(result.stderr)")
        }
    }

    /// Peak memory is measured as the kernel counts it (`/usr/bin/time`), not timed: 200 samples of a
    /// mebibyte each would keep 200 MiB if their text were kept.
    @Test func twoHundredMebibytesOfSkippedSamplesStayUnderTheBudget() async throws {
        try await withTemporaryDirectory { folder in
            let export = Self.export(samples: 200, unitBytes: 1 << 20)
            try export.xml.write(toFile: folder + "/export.xml", atomically: false, encoding: .utf8)
            let machine = JournalCLI(home: folder + "/home")
            let result = try ProcessRunner.run(
                "/usr/bin/time", ["-f", "%M", "-o", folder + "/peak", JournalCLI.binary, "import", "--from", "apple-health", folder + "/export.xml"],
                environment: machine.environment)
            #expect(result.status == 0, "\(result.stderr.prefix(500))")
            #expect(result.stdout.hasPrefix("Imported 1 drink from Apple Health; 201 caffeine samples"), "\(result.stdout)")
            #expect(result.stderr.hasSuffix("skipped 180 more\n"), "\(result.stderr.suffix(300))")
            let peakKiB = try #require(Int(try String(contentsOfFile: folder + "/peak", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(peakKiB < 64 * 1024, "peak \(peakKiB) KiB")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// `journal sleep` on the nights of an Apple Health export: a watch writing stages, a phone writing
/// in-bed and a shorter sleep of its own, a sleep app on some nights with more sleep than either, naps,
/// nights after midnight and across New York's autumn clock change, nights without an in-bed sample
/// (their time to fall asleep unknown, not 0), and a planted effect: the more
/// caffeine at lights-out, the longer to fall asleep. Every number of the report is computed here
/// again, from what the export was built to hold: the nights from their construction, the caffeine
/// by Coffee Tracker's sum, the groups, medians and the bootstrap by the documented procedure.
@Suite(.onTestThreads) struct SleepReportTests {
    static let zone = TimeZone(identifier: "America/New_York")!

    /// A night as built: the evening it belongs to, lights-out, and what each source writes.
    struct BuiltNight {
        var date: String
        var lightsOut: Date
        var asleepAt: Date
        var wokeAt: Date
        var asleepSeconds: Double
        var awakenings: Int
        var source: String
        /// False when no source wrote an in-bed sample: lights-out is then the first sample of sleep.
        var lightsOutKnown = true
    }

    static func healthDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.string(from: date)
    }

    static func record(_ source: String, _ value: String, _ start: Date, _ end: Date) -> String {
        " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"\(source)\" sourceVersion=\"9.0\" "
            + "creationDate=\"\(healthDate(end))\" startDate=\"\(healthDate(start))\" endDate=\"\(healthDate(end))\" "
            + "value=\"HKCategoryValueSleepAnalysis\(value)\"/>\n"
    }

    @Test func theReportsNumbersAreTheNightsAsBuilt() async throws {
        try await withTemporaryDirectory { folder in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = Self.zone
            var export = HealthExport()
            var built: [BuiltNight] = []
            var drinks: [(at: Date, mg: Double)] = []
            // 36 evenings from 2026-10-06: the night of 10-31 spans the clock change.
            for index in 0..<36 {
                let evening = calendar.date(from: DateComponents(year: 2026, month: 10, day: 6 + index, hour: 12))!
                let date = String(format: "2026-%02d-%02d", calendar.component(.month, from: evening), calendar.component(.day, from: evening))
                func at(_ hours: Double) -> Date { evening.addingTimeInterval(hours * 3600) }
                // The morning's espresso, and an evening's drink by a pattern: none, 64 mg at 19:00, or 128 mg at 20:30.
                var evenings: [(Date, Double, String)] = [(at(-4), 64, "64")]
                switch index % 3 {
                case 1: evenings.append((at(7), 64, "64"))
                case 2: evenings.append((at(8.5), 128, "128"))
                default: break
                }
                // Lights-out at 22:40, or 00:25 after midnight every fifth night (the evening before still).
                let lightsOut = index % 5 == 4 ? at(12 + 25.0 / 60) : at(10 + 40.0 / 60)
                for (time, mg, value) in evenings where time < lightsOut {
                    drinks.append((time, mg))
                    export.body += " <Record type=\"HKQuantityTypeIdentifierDietaryCaffeine\" sourceName=\"Coffee Tracker\" unit=\"mg\" "
                        + "creationDate=\"\(Self.healthDate(time))\" startDate=\"\(Self.healthDate(time))\" endDate=\"\(Self.healthDate(time))\" "
                        + "value=\"\(value)\"/>\n"
                }
                // The planted effect: 6 minutes, and 0.4 of a minute for each mg at lights-out.
                let caffeine = drinks.reduce(0.0) { $0 + (lightsOut >= $1.at ? $1.mg * pow(0.5, lightsOut.timeIntervalSince($1.at) / 3600 / 5) : 0) }
                let latency = (6 + 0.4 * caffeine).rounded() * 60
                let asleepAt = lightsOut.addingTimeInterval(latency)
                // The watch: stages with an awake sample at 2 h, a 6-minute gap at 4 h (an awakening
                // with no sample), a 3-minute gap at 5 h (none), and no in-bed sample.
                let w = { (hours: Double) in asleepAt.addingTimeInterval(hours * 3600) }
                let watch: [(String, Date, Date)] = [
                    ("AsleepCore", w(0), w(2)), ("Awake", w(2), w(2.1)), ("AsleepDeep", w(2.1), w(4)),
                    ("AsleepREM", w(4.1), w(5)), ("AsleepCore", w(5.05), w(7)),
                ]
                for (value, start, end) in watch { export.body += Self.record("Apple Watch", value, start, end) }
                // The phone: in bed from lights-out, asleep (unspecified) for 6 hours only.
                // Some nights the phone was not by the bed: no in-bed sample from any source.
                let withoutInBed = index % 9 == 4
                if !withoutInBed { export.body += Self.record("iPhone", "InBed", lightsOut, w(7.2)) }
                export.body += Self.record("iPhone", "AsleepUnspecified", asleepAt.addingTimeInterval(600), w(6.1))
                let watchAsleep = (2 + 1.9 + 0.9 + 1.95) * 3600
                if index % 7 == 3 {
                    // A sleep app that saw more sleep than the watch, from 10 minutes later, on one stretch.
                    let start = asleepAt.addingTimeInterval(600)
                    export.body += Self.record("Sleep App", "Asleep", start, start.addingTimeInterval(7 * 3600))
                    built.append(BuiltNight(
                        date: date, lightsOut: lightsOut, asleepAt: start, wokeAt: start.addingTimeInterval(7 * 3600), asleepSeconds: 7 * 3600,
                        awakenings: 0, source: "Sleep App", lightsOutKnown: !withoutInBed))
                } else {
                    built.append(BuiltNight(
                        date: date, lightsOut: lightsOut, asleepAt: asleepAt, wokeAt: w(7), asleepSeconds: watchAsleep, awakenings: 2,
                        source: "Apple Watch", lightsOutKnown: !withoutInBed))
                }
                // A nap the next afternoon on some days: not a night.
                if index % 4 == 0 {
                    let nap = at(26)
                    export.body += Self.record("Apple Watch", "AsleepCore", nap, nap.addingTimeInterval(40 * 60))
                }
            }
            // Without an in-bed sample, lights-out is the chosen source's first sample of sleep.
            for index in built.indices where !built[index].lightsOutKnown { built[index].lightsOut = built[index].asleepAt }
            #expect(built.filter { !$0.lightsOutKnown }.count == 4)
            try export.writeZip(to: folder + "/export.zip")
            let machine = JournalCLI(home: folder + "/home", now: "2026-11-12T12:00:00-05:00", timeZone: Self.zone.identifier)
            let imported = try machine.run("import", "--from", "apple-health", folder + "/export.zip")
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains("Imported 36 nights from the"), "\(imported.stdout)")
            #expect(imported.stdout.contains("9 naps left out"), "\(imported.stdout)")
            let report = try #require(try machine.json("sleep", "--all", "--json") as? [String: Any])
            let nights = try #require(report["nights"] as? [[String: Any]])
            #expect(nights.count == built.count)

            // Each night as built, with its caffeine at lights-out by Coffee Tracker's sum.
            var caffeineAt: [Double] = []
            // nil where the night cannot tell.
            var latencies: [Double?] = []
            var asleep: [Double] = []
            for (night, expected) in zip(nights, built) {
                let caffeine = drinks.filter { $0.at <= expected.lightsOut }.reduce(0.0) {
                    $0 + $1.mg * pow(0.5, expected.lightsOut.timeIntervalSince($1.at) / 3600 / 5)
                }
                caffeineAt.append(caffeine)
                latencies.append(expected.lightsOutKnown ? expected.asleepAt.timeIntervalSince(expected.lightsOut) / 60 : nil)
                asleep.append(expected.asleepSeconds / 60)
                let context = "\(expected.date): \(night)"
                #expect(night["night"] as? String == expected.date, "\(context)")
                if expected.lightsOutKnown {
                    #expect((night["in_bed_at"] as? String).flatMap(BedtimeTests.date) == expected.lightsOut, "\(context)")
                    #expect(night["latency_min"] as? Double == (latencies.last!! * 100).rounded() / 100, "\(context)")
                } else {
                    #expect(night["in_bed_at"] is NSNull && night["latency_min"] is NSNull, "unknown, not 0 min: \(context)")
                }
                #expect((night["asleep_at"] as? String).flatMap(BedtimeTests.date) == expected.asleepAt, "\(context)")
                #expect((night["woke_at"] as? String).flatMap(BedtimeTests.date) == expected.wokeAt, "\(context)")
                #expect(night["asleep_min"] as? Double == (asleep.last! * 100).rounded() / 100, "\(context)")
                #expect(night["awakenings"] as? Int == expected.awakenings, "\(context)")
                #expect(night["source"] as? String == expected.source, "\(context)")
                #expect(abs((night["caffeine_at_lights_out_mg"] as? Double ?? -1) - caffeine) <= 0.005, "\(context)")
                // The last drink within the model's window (24 half-lives) before lights-out.
                let last = drinks.filter { $0.at <= expected.lightsOut && expected.lightsOut.timeIntervalSince($0.at) < 120 * 3600 }.map(\.at).max()
                #expect((night["last_drink_at"] as? String).flatMap(BedtimeTests.date) == last, "\(context)")
            }

            // The groups: under 25 mg, 25 to 50, 50 and over (the sleep threshold is 50 mg).
            let bounds: [(Double, Double?)] = [(0, 25), (25, 50), (50, nil)]
            let groups = try #require(report["groups"] as? [[String: Any]])
            var members: [[Int]] = []
            for ((from, to), group) in zip(bounds, groups) {
                let inGroup = caffeineAt.indices.filter { index in caffeineAt[index] >= from && (to.map { caffeineAt[index] < $0 } ?? true) }
                members.append(inGroup)
                #expect(group["nights"] as? Int == inGroup.count, "\(group)")
                #expect(group["from_mg"] as? Double == from && (group["to_mg"] as? Double) == to, "\(group)")
                let known = inGroup.compactMap { latencies[$0] }
                #expect(group["nights_with_latency"] as? Int == known.count, "\(group)")
                #expect(group["median_latency_min"] as? Double == Self.median(known).map { ($0 * 100).rounded() / 100 }, "\(group)")
                #expect(group["median_asleep_min"] as? Double == Self.median(inGroup.map { asleep[$0] }).map { ($0 * 100).rounded() / 100 }, "\(group)")
            }
            // The nights without a time to fall asleep are in the groups' counts, and out of their medians.
            #expect(members.flatMap { $0 }.contains { latencies[$0] == nil })

            // The difference and its bootstrap interval: 2000 resamples by SplitMix64 from 0x5EEDCAFE,
            // the highest group drawn first, then the lowest; sorted, 50 left out at each end.
            let high = members[2].compactMap { latencies[$0] }, low = members[0].compactMap { latencies[$0] }
            #expect(low.count >= 8 && high.count >= 8, "the planted nights fill both ends: \(low.count) and \(high.count)")
            var state: UInt64 = 0x5EED_CAFE
            func next() -> UInt64 {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return z ^ (z >> 31)
            }
            var differences: [Double] = []
            for _ in 0..<2000 {
                let a = high.map { _ in high[Int(next() % UInt64(high.count))] }
                let b = low.map { _ in low[Int(next() % UInt64(low.count))] }
                differences.append(Self.median(a)! - Self.median(b)!)
            }
            differences.sort()
            let difference = try #require(report["difference"] as? [String: Any])
            #expect(difference["latency_min"] as? Double == ((Self.median(high)! - Self.median(low)!) * 100).rounded() / 100)
            #expect(difference["low"] as? Double == (differences[50] * 100).rounded() / 100, "\(difference)")
            #expect(difference["high"] as? Double == (differences[1949] * 100).rounded() / 100, "\(difference)")
            #expect(differences[50] > 0)
            #expect(report["suggested_threshold_mg"] as? Double == 25)
            #expect(report["nights_needed"] is NSNull)

            let words = try machine.run("sleep", "--all").stdout
            #expect(words.contains("it cannot tell what caused a difference"), "\(words)")
            #expect(words.contains("journal config sleep_threshold_mg 25"), "\(words)")
            #expect(words.contains("4 nights have no lights-out of their own (no in-bed sample): their time to fall asleep is unknown (–)"), "\(words)")
            #expect(words.contains("(medians; 95% interval") && words.contains(", \(high.count) and \(low.count) nights)."), "\(words)")
            // The view of journal sql says the same.
            let view = try machine.run("sql", "SELECT count(*) FROM sleep WHERE latency_min IS NULL AND in_bed_at IS NULL").stdout
            #expect(view.contains("4"), "\(view)")
            // The last 10 days hold too few nights to compare, and say how many more.
            let recent = try #require(try machine.json("sleep", "--days", "10", "--json") as? [String: Any])
            #expect(recent["difference"] is NSNull && (recent["nights_needed"] as? Int ?? 0) > 0, "\(recent)")
        }
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

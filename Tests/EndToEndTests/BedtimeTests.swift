import Foundation
import PropertyBased
import Testing
import TestSupport

/// `status` with a bedtime, against a computation of the test's own: Foundation's calendar for the
/// zone (not the C library's the journal uses), the level summed drink by drink, the room found by
/// bisection and the last cup by trying every minute, over random histories in New York on the days
/// its clocks change and on an ordinary one.
@Suite(.onTestThreads) struct BedtimeTests {
    static let zone = TimeZone(identifier: "America/New_York")!

    /// A history: the day (0 spring forward, 1 fall back, 2 ordinary), now (minutes into a 48-hour
    /// window from noon the day before), the bedtime (a minute of the day, half-hours mostly, so that
    /// the skipped 02:30 and the repeated 01:30 come up), the half-life, and drinks (minutes from now,
    /// mg; up to 5 minutes ahead, as a drink may be logged).
    static let histories = zip(
        Gen.int(in: 0...2), Gen.int(in: 0...(48 * 60 - 1)), Gen.int(in: 0...47).map { $0 * 30 }, Gen.int(in: 1...8),
        zip(Gen.int(in: -1200...5), Gen.int(in: 0...300)).array(of: 0...4))

    static let days = ["2026-03-08", "2026-11-01", "2026-06-15"]

    @Test func statusForecastsTheNightAsAnIndependentComputationDoes() async throws {
        await checkProperty(count: 100, input: Self.histories) { day, nowMinute, bedMinute, halfLife, drinks in
            try await withTemporaryDirectory { home in
                let noonBefore = try #require(Self.instant("\(Self.days[day])T12:00:00", offsetDays: -1))
                let now = noonBefore.addingTimeInterval(Double(nowMinute) * 60)
                let cli = JournalCLI(home: home, now: Self.iso(now), timeZone: Self.zone.identifier)
                let bedtime = String(format: "%02d:%02d", bedMinute / 60, bedMinute % 60)
                try cli.writeSettings("bedtime = \"\(bedtime)\"\nhalf_life_hours = \(halfLife)\n")
                var intakes: [(Date, Double)] = []
                for (offset, mg) in drinks {
                    let at = now.addingTimeInterval(Double(offset) * 60)
                    let added = try cli.run("add", "espresso", "--mg", String(mg), "--at", Self.iso(at))
                    #expect(added.status == 0, "\(added.stderr)")
                    intakes.append((at, Double(mg)))
                }
                let status = try #require(try cli.json("status", "--json") as? [String: Any])

                let bed = try #require(Self.nextBedtime(after: now, minute: bedMinute))
                func level(at instant: Date) -> Double {
                    intakes.filter { $0.0 <= instant }.reduce(0) { sum, intake in
                        sum + intake.1 * pow(2, -instant.timeIntervalSince(intake.0) / 3600 / Double(halfLife))
                    }
                }
                let atBed = level(at: bed)
                let decay = pow(2, -bed.timeIntervalSince(now) / 3600 / Double(halfLife))
                var (low, high) = (0.0, 1e12)
                for _ in 0..<200 {
                    let middle = (low + high) / 2
                    if atBed + middle * decay <= 50 { low = middle } else { high = middle }
                }
                let room = atBed >= 50 ? 0 : low
                let context = "now \(Self.iso(now)), bedtime \(bedtime), half-life \(halfLife), drinks \(drinks): \(status)"
                #expect((status["bedtime"] as? String).flatMap(Self.date) == bed, "\(context)")
                #expect(abs((status["bedtime_mg"] as? Double ?? -1) - atBed) <= 0.006, "\(context)")
                #expect(abs((status["room_mg"] as? Double ?? -1) - room) <= 0.011, "\(context)")
                #expect((status["asleep_at_bedtime"] as? Bool) == (atBed < 50), "\(context)")
                let overLimit = status["over_limit"] as? Bool == true
                #expect((status["state"] as? String == "curfew") == (!overLimit && room == 0), "\(context)")

                // The last cup: now or a whole minute up to bedtime, the latest after which a 96 mg
                // cup leaves at most the threshold at bedtime.
                var candidates = [now]
                var minute = (now.timeIntervalSince1970 / 60).rounded(.up) * 60
                while minute <= bed.timeIntervalSince1970 {
                    candidates.append(Date(timeIntervalSince1970: minute))
                    minute += 60
                }
                let fits = candidates.filter { atBed + 96 * pow(2, -bed.timeIntervalSince($0) / 3600 / Double(halfLife)) <= 50 }
                let lastCup = (status["last_cup_by"] as? String).flatMap(Self.date)
                if let expected = fits.max() {
                    // A minute either way where the cup's decay meets the threshold within rounding.
                    let found = try #require(lastCup, "\(context)")
                    #expect(abs(found.timeIntervalSince(expected)) <= 60, "\(context)")
                    #expect(found >= now.addingTimeInterval(-1) && found <= bed, "\(context)")
                } else {
                    #expect(lastCup == nil || room >= 95.9, "\(context)")
                }
            }
        }
    }

    /// A bedtime clocks skip is the instant they jump forward; one they repeat, the first of the two.
    @Test(arguments: [
        ("2026-03-07T20:00:00-05:00", "02:30", "2026-03-08T03:00:00-04:00"),
        ("2026-10-31T20:00:00-04:00", "01:30", "2026-11-01T01:30:00-04:00"),
        // Past the first 01:30, bedtime has passed: the clocks reading it again an hour later is not another.
        ("2026-11-01T01:45:00-04:00", "01:30", "2026-11-02T01:30:00-05:00"),
        ("2026-11-01T01:45:00-05:00", "01:30", "2026-11-02T01:30:00-05:00"),
    ])
    func aBedtimeOnTheDaysClocksChange(now: String, bedtime: String, expected: String) async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home, now: now, timeZone: Self.zone.identifier)
            let status = try #require(try cli.json("status", "--json", "--bedtime", bedtime) as? [String: Any])
            #expect(status["bedtime"] as? String == expected, "\(status)")
        }
    }

    /// `add` says so when the drink it recorded is what keeps you up past bedtime, and only then.
    @Test func addSaysWhenADrinkTakesBedtimeOverTheThreshold() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            #expect(try cli.run("add", "espresso").stdout.split(separator: "\n").count == 1)
            try cli.writeSettings("bedtime = \"23:00\"\n")
            // 64 mg at 15:30 leaves 22.3 mg at 23:00: under. A double espresso more takes it to 67 mg.
            let tea = try cli.run("add", "green-tea")
            #expect(tea.status == 0 && tea.stdout.split(separator: "\n").count == 1, "\(tea.stdout)")
            let double = try cli.run("add", "double-espresso")
            #expect(double.stdout.contains("This keeps you above 50 mg until 02:"), "\(double.stdout)")
            #expect(double.stdout.contains("past your 23:00 bedtime"), "\(double.stdout)")
            // Already over: the next one does not say it again; --json prints the drink alone.
            #expect(try cli.run("add", "espresso").stdout.split(separator: "\n").count == 1)
            let json = try cli.run("add", "espresso", "--json")
            #expect(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) is [String: Any])
            let status = try cli.run("status")
            #expect(status.stdout.contains("Room left     none"), "\(status.stdout)")
            #expect(try cli.run("status", "--format", "{state}").stdout == "curfew\n")
        }
    }

    @Test func aBedtimeThatIsNoTimeIsRefusedInWords() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home)
            let given = try cli.run("status", "--bedtime", "25:00")
            #expect(given.status == 65 && given.stderr.contains("cannot use '25:00' as a time: it is not a time of day"), "\(given.stderr)")
            try cli.writeSettings("bedtime = \"late\"\n")
            let set = try cli.run("status")
            #expect(set.status != 0 && set.stderr.contains("config.toml, line 1, bedtime: it must be a time of day"), "\(set.stderr)")
            #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
        }
    }

    /// Without a bedtime, status says nothing of the night and its fields are null.
    @Test func withoutABedtimeTheNightFieldsAreNull() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home)
            try cli.run("add", "espresso")
            #expect(!(try cli.run("status").stdout.contains("Bedtime")))
            let status = try #require(try cli.json("status", "--json") as? [String: Any])
            for field in ["bedtime", "bedtime_mg", "room_mg", "last_cup_by", "asleep_at_bedtime"] { #expect(status[field] is NSNull, "\(field)") }
            let once = try #require(try cli.json("status", "--json", "--bedtime", "11pm") as? [String: Any])
            #expect(once["bedtime"] as? String == "2026-11-21T23:00:00+00:00")
        }
    }

    /// The first bedtime after `now`: on each day, the first instant at which New York's clocks read
    /// `minute` of the day, or the first that reads later that day (where clocks skipped it). Searched
    /// minute by minute from a day before, so that a bedtime whose hour repeats counts once.
    static func nextBedtime(after now: Date, minute: Int) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func reading(_ instant: Date) -> (day: Int, minute: Int) {
            let parts = calendar.dateComponents([.day, .hour, .minute], from: instant)
            return (parts.day!, parts.hour! * 60 + parts.minute!)
        }
        var instant = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60 - 30 * 3600)
        var reachedOn: Set<Int> = []
        for _ in 0..<(4 * 1440) {
            // The clocks reach `minute` here: they read it or later, and a minute ago read less or
            // another day.
            let (day, clock) = reading(instant)
            let (dayBefore, before) = reading(instant.addingTimeInterval(-60))
            if clock >= minute, day != dayBefore || before < minute, reachedOn.insert(day).inserted, instant > now { return instant }
            instant = instant.addingTimeInterval(60)
        }
        return nil
    }

    static func instant(_ local: String, offsetDays: Int) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.date(from: local)?.addingTimeInterval(Double(offsetDays) * 86_400)
    }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func date(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }
}

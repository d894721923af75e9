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

                // The night under way (a bedtime less than 8 hours ago), else the next.
                let bedtimes = Self.bedtimes(around: now, minute: bedMinute)
                let last = bedtimes.filter { $0 <= now }.max()
                let isPast = last.map { now.timeIntervalSince($0) < 8 * 3600 } ?? false
                let bed = try #require(isPast ? last : bedtimes.filter { $0 > now }.min())
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
                let roomAtBed = isPast || atBed >= 50 ? 0 : low
                // Today's limit (400 mg) holds the room too: today is the calendar day of now.
                let today = intakes.filter { Self.day(of: $0.0) == Self.day(of: now) }.reduce(0) { $0 + $1.1 }
                let limitLeft = max(0, 400 - today)
                let room = min(roomAtBed, limitLeft)
                let context = "now \(Self.iso(now)), bedtime \(bedtime), half-life \(halfLife), drinks \(drinks): \(status)"
                #expect((status["bedtime"] as? String).flatMap(Self.date) == bed, "\(context)")
                #expect(status["past_bedtime"] as? Bool == isPast, "\(context)")
                #expect(abs((status["bedtime_mg"] as? Double ?? -1) - atBed) <= 0.006, "\(context)")
                #expect(abs((status["room_mg"] as? Double ?? -1) - room) <= 0.011, "\(context)")
                let bound = isPast ? "past-bedtime" : limitLeft < roomAtBed - 0.011 ? "daily-limit" : roomAtBed < limitLeft - 0.011 ? "bedtime" : nil
                if let bound { #expect(status["room_bound"] as? String == bound, "\(context)") }
                #expect((status["asleep_at_bedtime"] as? Bool) == (atBed < 50), "\(context)")
                let overLimit = status["over_limit"] as? Bool == true
                #expect(overLimit == (today > 400), "\(context)")
                #expect((status["state"] as? String == "curfew") == (!overLimit && roomAtBed == 0), "\(context)")

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
                if isPast || limitLeft < 96 {
                    // No cup past bedtime, nor one today's limit has no room for.
                    #expect(lastCup == nil, "\(context)")
                } else if let expected = fits.max() {
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
        // Past the first 01:30, the night under way is its: the clocks reading it again an hour later is
        // not another bedtime.
        ("2026-11-01T01:45:00-04:00", "01:30", "2026-11-01T01:30:00-04:00"),
        ("2026-11-01T01:45:00-05:00", "01:30", "2026-11-01T01:30:00-04:00"),
        // Eight hours after it (nine on the clocks), the next night.
        ("2026-11-01T08:30:00-05:00", "01:30", "2026-11-02T01:30:00-05:00"),
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
            // Each drink that keeps you up later says so again, with the time it moved from; one that
            // moves nothing says nothing.
            let later = try cli.run("add", "espresso")
            #expect(later.stdout.contains("past your 23:00 bedtime (it was 02:"), "\(later.stdout)")
            #expect(try cli.run("add", "espresso", "--mg", "0").stdout.split(separator: "\n").count == 1)
            // --json prints the drink alone.
            let json = try cli.run("add", "espresso", "--json")
            #expect(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) is [String: Any])
            let status = try cli.run("status")
            #expect(status.stdout.contains("Room left     none"), "\(status.stdout)")
            #expect(try cli.run("status", "--format", "{state}").stdout == "curfew\n")
        }
    }

    /// A drink entered late for a time long past belongs to a night already over: its tail moves
    /// tonight's sleep-ready minutes later, and that is no warning about the night it was had before.
    /// One had this morning is this night's.
    @Test func aDrinkOfANightAlreadyOverWarnsOfNone() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home, now: "2026-11-21T15:30:00Z")
            try cli.writeSettings("bedtime = \"23:00\"\n")
            try cli.run("add", "espresso")
            #expect(try cli.run("add", "double-espresso").stdout.contains("past your 23:00 bedtime"))
            let yesterday = try cli.run("add", "quad-espresso", "--at", "yesterday 9am")
            #expect(yesterday.status == 0 && yesterday.stdout.split(separator: "\n").count == 1, "\(yesterday.stdout)")
            let lastNight = try cli.run("add", "quad-espresso", "--at", "1:00")
            #expect(lastNight.status == 0 && lastNight.stdout.split(separator: "\n").count == 1, "\(lastNight.stdout)")
            #expect(try cli.run("add", "espresso", "--at", "8:00").stdout.contains("past your 23:00 bedtime (it was 0"))
        }
    }

    /// A cup early in the morning, whose caffeine lasts into the afternoon, keeps no night awake: no
    /// warning; one in the evening does.
    @Test func theWarningSpeaksOfNightsOnly() async throws {
        try await withTemporaryDirectory { home in
            let morning = JournalCLI(home: home, now: "2026-11-21T05:45:00Z")
            try morning.writeSettings("bedtime = \"22:00\"\n")
            let early = try morning.run("add", "medium-coffee")
            #expect(early.status == 0 && early.stdout.split(separator: "\n").count == 1, "\(early.stdout)")
            let evening = JournalCLI(home: home, now: "2026-11-21T20:00:00Z")
            #expect(try evening.run("add", "double-espresso").stdout.contains("past your 22:00 bedtime"))
        }
    }

    /// Room left is the least of what today's limit and the bedtime allow, and says which holds it.
    @Test func roomLeftKeepsToTheDailyLimit() async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home, now: "2026-11-21T10:00:00Z")
            try cli.writeSettings("daily_limit_mg = 200\nbedtime = \"23:00\"\n")
            try cli.run("add", "espresso")
            let status = try cli.run("status")
            #expect(status.stdout.contains("Limit         136 mg left of 200 mg"), "\(status.stdout)")
            #expect(status.stdout.contains("Room left     136 mg (today's limit): room for 2 × espresso"), "\(status.stdout)")
            let json = try #require(try cli.json("status", "--json") as? [String: Any])
            #expect(json["room_mg"] as? Double == 136 && json["room_bound"] as? String == "daily-limit", "\(json)")
            // Less than a cup left of the limit: no "last cup by" time.
            try cli.run("add", "espresso", "--mg", "50")
            let short = try cli.run("status")
            #expect(short.stdout.contains("Room left     86 mg (today's limit)"), "\(short.stdout)")
            #expect(short.stdout.contains("Last cup by   none today: your limit leaves less than a 96 mg cup"), "\(short.stdout)")
            #expect((try cli.json("status", "--json") as? [String: Any])?["last_cup_by"] is NSNull)
            // Said in whole milligrams, down, as before the limit held the room.
            try cli.writeSettings("daily_limit_mg = 186.7\nbedtime = \"23:00\"\n")
            #expect(try cli.run("status").stdout.contains("Room left     72 mg (today's limit)"))
            // Where the night leaves less than the limit, the night holds the room.
            try cli.writeSettings("daily_limit_mg = 2000\nbedtime = \"23:00\"\n")
            let night = try #require(try cli.json("status", "--json") as? [String: Any])
            #expect(night["room_bound"] as? String == "bedtime" && (night["room_mg"] as? Double ?? 0) < 1800, "\(night)")
        }
    }

    /// Past bedtime, status speaks of the night under way for 8 hours, not of tomorrow night's room.
    @Test(arguments: ["2026-11-21T23:30:00Z", "2026-11-22T02:00:00Z", "2026-11-22T06:59:00Z"])
    func pastBedtimeNoRoomIsLeft(now: String) async throws {
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home, now: now)
            try cli.writeSettings("bedtime = \"23:00\"\n")
            let status = try cli.run("status")
            #expect(status.stdout.contains("Room left     none: it is past your 23:00 bedtime"), "\(status.stdout)")
            #expect(!status.stdout.contains("Last cup by"), "\(status.stdout)")
            let json = try #require(try cli.json("status", "--json") as? [String: Any])
            #expect(json["bedtime"] as? String == "2026-11-21T23:00:00+00:00", "\(json)")
            #expect(json["past_bedtime"] as? Bool == true && json["room_mg"] as? Double == 0, "\(json)")
            #expect(json["room_bound"] as? String == "past-bedtime" && json["state"] as? String == "curfew", "\(json)")
        }
        // Eight hours on, the next night.
        try await withTemporaryDirectory { home in
            let cli = JournalCLI(home: home, now: "2026-11-22T07:00:00Z")
            try cli.writeSettings("bedtime = \"23:00\"\n")
            let json = try #require(try cli.json("status", "--json") as? [String: Any])
            #expect(json["bedtime"] as? String == "2026-11-22T23:00:00+00:00" && json["past_bedtime"] as? Bool == false, "\(json)")
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
            for field in ["bedtime", "past_bedtime", "bedtime_mg", "room_mg", "room_bound", "last_cup_by", "asleep_at_bedtime"] { #expect(status[field] is NSNull, "\(field)") }
            let once = try #require(try cli.json("status", "--json", "--bedtime", "11pm") as? [String: Any])
            #expect(once["bedtime"] as? String == "2026-11-21T23:00:00+00:00")
        }
    }

    /// The bedtimes from 30 hours before `now` to 66 hours after: on each day, the first instant at
    /// which `zone`'s clocks (New York's) read `minute` of the day, or the first that reads later that day (where
    /// clocks skipped it). Searched minute by minute, so that a bedtime whose hour repeats counts once.
    static func bedtimes(around now: Date, minute: Int, in zone: TimeZone = zone) -> [Date] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func reading(_ instant: Date) -> (day: Int, minute: Int) {
            let parts = calendar.dateComponents([.day, .hour, .minute], from: instant)
            return (parts.day!, parts.hour! * 60 + parts.minute!)
        }
        var instant = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60 - 30 * 3600)
        var reachedOn: Set<Int> = []
        var found: [Date] = []
        for _ in 0..<(4 * 1440) {
            // The clocks reach `minute` here: they read it or later, and a minute ago read less or
            // another day.
            let (day, clock) = reading(instant)
            let (dayBefore, before) = reading(instant.addingTimeInterval(-60))
            if clock >= minute, day != dayBefore || before < minute, reachedOn.insert(day).inserted { found.append(instant) }
            instant = instant.addingTimeInterval(60)
        }
        return found
    }

    /// The calendar day `instant` falls in, in New York or `zone`.
    static func day(of instant: Date, in zone: TimeZone = zone) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.dateComponents([.year, .month, .day], from: instant)
    }

    static func instant(_ local: String, offsetDays: Int, in zone: TimeZone = zone) -> Date? {
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

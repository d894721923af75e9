import Foundation
import PropertyBased
import Testing
import TestSupport

/// `status` by the personal model, against a computation of the test's own: the Bateman function summed
/// drink by drink (each drink absorbed at its form's rate, 6 per hour for a beverage, 1.5 for a soft
/// drink), Foundation's calendar for the zone, and every forecast found by brute force on a grid of
/// 15 seconds, over random histories in four zones, on the days their clocks change and on an ordinary one.
@Suite(.onTestThreads) struct PersonalModelTests {
    /// Each zone with its spring and autumn clock changes of 2026 and an ordinary day: New York and
    /// Berlin by an hour, Lord Howe Island by half an hour, Kolkata never.
    static let zones: [(TimeZone, [String])] = [
        (TimeZone(identifier: "America/New_York")!, ["2026-03-08", "2026-11-01", "2026-06-15"]),
        (TimeZone(identifier: "Europe/Berlin")!, ["2026-03-29", "2026-10-25", "2026-07-01"]),
        (TimeZone(identifier: "Australia/Lord_Howe")!, ["2026-10-04", "2026-04-05", "2026-01-20"]),
        (TimeZone(identifier: "Asia/Kolkata")!, ["2026-03-08", "2026-11-01", "2026-06-15"]),
    ]

    /// A history: the zone, its day, now (minutes into a 48-hour window from noon the day before), the
    /// bedtime (a half-hour of the day, or half the time the minute 0 to 150 minutes after now, so that
    /// drinks are still being absorbed at bedtime), the half-life, and drinks (minutes from now, mg,
    /// slow or not; up to 5 minutes ahead, as a drink may be logged).
    static let histories = zip(
        Gen.int(in: 0...3), Gen.int(in: 0...2), Gen.int(in: 0...(48 * 60 - 1)),
        Gen.oneOf(Gen.int(in: 0...47).map { $0 * 30 }, Gen.int(in: 0...150).map { -1 - $0 }), Gen.int(in: 1...9),
        zip(Gen.int(in: -300...5), Gen.int(in: 0...300), Gen.bool(0.3)).array(of: 0...4))

    @Test func statusForecastsByThePersonalModelAsAnIndependentComputationDoes() async throws {
        await checkProperty(count: 60, input: Self.histories) { zoneIndex, day, nowMinute, bedChoice, halfLife, drinks in
            try await withTemporaryDirectory { home in
                let (zone, days) = Self.zones[zoneIndex]
                let noonBefore = try #require(BedtimeTests.instant("\(days[day])T12:00:00", offsetDays: -1, in: zone))
                let now = noonBefore.addingTimeInterval(Double(nowMinute) * 60)
                let cli = JournalCLI(home: home, now: BedtimeTests.iso(now), timeZone: zone.identifier)
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                let nearBed = calendar.dateComponents([.hour, .minute], from: now.addingTimeInterval(Double(-1 - bedChoice) * 60))
                let bedMinute = bedChoice >= 0 ? bedChoice : nearBed.hour! * 60 + nearBed.minute!
                let bedtime = String(format: "%02d:%02d", bedMinute / 60, bedMinute % 60)
                try cli.writeSettings("bedtime = \"\(bedtime)\"\nhalf_life_hours = \(halfLife)\nweight_kg = 80\n")
                var intakes: [(at: Date, mg: Double, ka: Double)] = []
                for (offset, mg, slow) in drinks {
                    let at = now.addingTimeInterval(Double(offset) * 60)
                    let added = try cli.run("add", slow ? "soft-drink" : "espresso", "--mg", String(mg), "--at", BedtimeTests.iso(at))
                    #expect(added.status == 0, "\(added.stderr)")
                    intakes.append((at, Double(mg), slow ? 1.5 : 6.0))
                }
                let status = try #require(try cli.json("status", "--json") as? [String: Any])
                let context = "\(zone.identifier), now \(BedtimeTests.iso(now)), bedtime \(bedtime), half-life \(halfLife), drinks \(drinks): \(status)"

                let ke = log(2) / Double(halfLife)
                func share(_ ka: Double, _ hours: Double) -> Double {
                    hours <= 0 ? 0 : ka / (ka - ke) * (exp(-ke * hours) - exp(-ka * hours))
                }
                func level(at instant: Date, plus cup: (at: Date, mg: Double)? = nil) -> Double {
                    var sum = intakes.reduce(0) { $0 + $1.mg * share($1.ka, instant.timeIntervalSince($1.at) / 3600) }
                    if let cup { sum += cup.mg * share(6.0, instant.timeIntervalSince(cup.at) / 3600) }
                    return sum
                }
                #expect(status["model"] as? String == "personal", "\(context)")
                let current = level(at: now)
                #expect(abs((status["current_mg"] as? Double ?? -1) - current) <= 0.006, "\(context)")
                // 80 kg at 0.56 L/kg: 44.8 L.
                #expect(abs((status["current_mg_per_l"] as? Double ?? -1) - current / 44.8) <= 0.006, "\(context)")

                // The peak: while the level rises at now, when it is highest before every drink has
                // peaked (4 hours after the last); near-ties, every look within 0.005 mg of the highest.
                let peakHorizon = intakes.map { $0.at.addingTimeInterval(4 * 3600) }.max() ?? now
                let peakLooks = stride(from: 0.0, through: max(0, peakHorizon.timeIntervalSince(now)), by: 15).map { now.addingTimeInterval($0) }
                let highest = peakLooks.map { level(at: $0) }.max() ?? current
                let peaks = level(at: now.addingTimeInterval(1)) > current + 1e-9 ? peakLooks.filter { level(at: $0) >= highest - 0.005 } : []
                let peaksAt = (status["peaks_at"] as? String).flatMap(BedtimeTests.date)
                if !peaks.isEmpty {
                    let found = try #require(peaksAt, "\(context)")
                    #expect(peaks.contains { abs(found.timeIntervalSince($0)) <= 46 }, "\(context)")
                } else {
                    #expect(peaksAt == nil, "\(context)")
                }

                // Sleep-ready: the last moment over the threshold, past which every drink has peaked.
                let horizon = intakes.map { $0.at.addingTimeInterval(4 * 3600) }.max() ?? now
                var lastOver: Date?
                var instant = now
                while instant <= horizon || level(at: instant) >= 50 {
                    if level(at: instant) >= 50 { lastOver = instant }
                    instant.addTimeInterval(15)
                }
                let ready = (status["sleep_ready_at"] as? String).flatMap(BedtimeTests.date)
                if let lastOver {
                    let found = try #require(ready, "\(context)")
                    #expect(found > lastOver && found.timeIntervalSince(lastOver) <= 60 + 15, "\(context)")
                } else {
                    #expect(ready == nil, "\(context)")
                }

                // The night under way (a bedtime less than 8 hours ago), else the next.
                let bedtimes = BedtimeTests.bedtimes(around: now, minute: bedMinute, in: zone)
                let lastBed = bedtimes.filter { $0 <= now }.max()
                let isPast = lastBed.map { now.timeIntervalSince($0) < 8 * 3600 } ?? false
                let bed = try #require(isPast ? lastBed : bedtimes.filter { $0 > now }.min())
                #expect((status["bedtime"] as? String).flatMap(BedtimeTests.date) == bed, "\(context)")
                // The night's looks: bedtime, then every 15 seconds for 6 hours.
                let looks = (0...(6 * 240)).map { bed.addingTimeInterval(Double($0) * 15) }
                let levels = looks.map { level(at: $0) }
                let atBed = isPast ? level(at: bed) : levels.max()!
                #expect(abs((status["bedtime_mg"] as? Double ?? -1) - atBed) <= 0.02, "\(context)")

                var roomAtBed = 0.0
                if !isPast && atBed < 50 {
                    var (low, high) = (0.0, 1e9)
                    for _ in 0..<100 {
                        let middle = (low + high) / 2
                        let fits = zip(looks, levels).allSatisfy { $1 + middle * share(6.0, $0.timeIntervalSince(now) / 3600) <= 50 }
                        if fits { low = middle } else { high = middle }
                    }
                    roomAtBed = low
                }
                let today = intakes.filter { BedtimeTests.day(of: $0.at, in: zone) == BedtimeTests.day(of: now, in: zone) }.reduce(0) { $0 + $1.mg }
                let limitLeft = max(0, 400 - today)
                let room = min(roomAtBed, limitLeft)
                #expect(abs((status["room_mg"] as? Double ?? -1) - room) <= 0.011 + 0.002 * room, "\(context)")

                // The last cup: now, then each whole minute up to bedtime, for as long as a 96 mg cup
                // then keeps every look of the night at or under the threshold.
                func fits(_ time: Date) -> Bool {
                    zip(looks, levels).allSatisfy { $1 + 96 * share(6.0, $0.timeIntervalSince(time) / 3600) <= 50 }
                }
                var lastFit: Date?
                var candidate = now
                while candidate <= bed, fits(candidate) {
                    lastFit = candidate
                    candidate = Date(timeIntervalSince1970: ((candidate.timeIntervalSince1970 / 60).rounded(.down) + 1) * 60)
                }
                let lastCup = (status["last_cup_by"] as? String).flatMap(BedtimeTests.date)
                if isPast || limitLeft < 96 || atBed >= 50 {
                    #expect(lastCup == nil, "\(context)")
                } else if let lastFit {
                    // A minute either way where the cup's peak meets the threshold within the grids' reach.
                    let found = try #require(lastCup, "\(context)")
                    #expect(abs(found.timeIntervalSince(lastFit)) <= 61, "\(context)")
                } else {
                    #expect(lastCup == nil || room >= 95.9, "\(context)")
                }
            }
        }
    }
}

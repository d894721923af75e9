import Glibc

/// What the night holds for a bedtime: the level then, how much more can be had now and still be
/// under the sleep threshold then (the room left), and the latest a cup can be had. From bedtime
/// until `nightHours` after it, the night is under way: it is past bedtime, and no room is left.
public struct BedtimeForecast: Sendable, Equatable {
    /// How long a night lasts after bedtime, for saying "past bedtime" rather than forecasting the
    /// next night at 23:30 or 02:00: a night's sleep, as the sleep literature counts one.
    public static let nightHours = 8.0

    /// The night's bedtime: the one under way (past, `isPast`), else the next.
    public let bedtime: Timestamp
    /// The night is under way: `bedtime` has passed, less than `nightHours` ago.
    public let isPast: Bool
    /// The caffeine in the body at `bedtime`, of every drink logged (ones logged ahead of now too); by
    /// the personal model, the most it is from bedtime until every drink has peaked.
    public let levelMg: Double
    /// The most caffeine that can be had now and still be at or under the threshold at `bedtime`,
    /// rounded down to the hundredth; 0 when there is no room.
    public let roomMg: Double
    /// The latest minute a cup (`CaffeineModel.milligramsPerCup`) can be had and still be at or under
    /// the threshold at `bedtime`; nil when even one now would not be.
    public let lastCupBy: Timestamp?

    /// No room left: it is past bedtime, or the level at bedtime is at or over the threshold
    /// already, so nothing with caffeine now lets you sleep then.
    public let isCurfew: Bool
}

extension CaffeineModel {
    /// The forecast for `bedtime` on the local clock, seen from `now`: for the night under way, or
    /// the next.
    public func bedtimeForecast(bedtime: ClockTime, threshold: Double, now: Timestamp, intakes: [CaffeineIntake]) -> BedtimeForecast {
        let today = LocalTime.components(now).date
        // The last bedtime the clocks reached, today's or yesterday's.
        var last = LocalTime.instant(of: bedtime, on: today)
        if last > now { last = LocalTime.instant(of: bedtime, on: today.adding(days: -1)) }
        if now.hours(since: last) < BedtimeForecast.nightHours {
            return BedtimeForecast(
                bedtime: last, isPast: true, levelMg: self.level(at: last, of: intakes), roomMg: 0, lastCupBy: nil, isCurfew: true)
        }
        var bed = LocalTime.instant(of: bedtime, on: today)
        if bed <= now { bed = LocalTime.instant(of: bedtime, on: today.adding(days: 1)) }
        switch kind {
        case .coffeeTracker: return instantForecast(bed: bed, threshold: threshold, now: now, intakes: intakes)
        case .personal: return absorbedForecast(bed: bed, threshold: threshold, now: now, intakes: intakes)
        }
    }

    /// By Coffee Tracker's model, what is left at bedtime is linear in what is had now: a dose `x`
    /// taken at `now` adds `x · ½^(h/half-life)` for the `h` hours until bedtime. So the room is what
    /// the threshold leaves over the bedtime level, divided by that factor, and the last cup is the time
    /// from which a cup decays to what is left over.
    private func instantForecast(bed: Timestamp, threshold: Double, now: Timestamp, intakes: [CaffeineIntake]) -> BedtimeForecast {
        let level = self.level(at: bed, of: intakes)
        let spare = threshold - level
        let hoursToBed = bed.hours(since: now)
        let room = spare > 0 ? Self.roundedDown((spare / pow(0.5, hoursToBed / halfLifeHours))) : 0
        var lastCup: Timestamp?
        if spare > 0 {
            let cup = Self.milligramsPerCup
            // Hours before bedtime a cup must be had for it to decay to `spare`.
            let hoursBefore = spare >= cup ? 0 : halfLifeHours * log2(cup / spare)
            if hoursBefore <= hoursToBed {
                lastCup = Self.wholeMinute(bed.milliseconds - Int64((hoursBefore * 3_600_000).rounded(.up)), notBefore: now)
            }
        }
        return BedtimeForecast(bedtime: bed, isPast: false, levelMg: level, roomMg: room, lastCupBy: lastCup, isCurfew: spare <= 0)
    }

    /// By the personal model, a drink had shortly before bedtime peaks after it, so the night is under
    /// the threshold only if the level stays under it from bedtime on: the forecast looks at the level
    /// minute by minute from bedtime until every drink, and a cup had by bedtime, has peaked (after
    /// which it only falls). The level it gives is the most of those; the room is the most a dose had
    /// now (of a beverage, as a cup is) can be and keep every look under the threshold.
    ///
    /// The last cup is the end of the stretch from now in which a cup had at any minute keeps every look
    /// under the threshold. It is not always the latest such minute: a cup right at bedtime peaks when
    /// an earlier drink's peak has passed, and may fit where one half an hour before does not, but
    /// "a cup by 22:10" must hold for every minute before it.
    private func absorbedForecast(bed: Timestamp, threshold: Double, now: Timestamp, intakes: [CaffeineIntake]) -> BedtimeForecast {
        let curve = LevelCurve(model: self, intakes: intakes, from: now)
        let cupPeak = Duration.milliseconds(Int64((peakHours(.beverage) * 3_600_000).rounded(.up)))
        let looks = LevelCurve.samples(from: bed, through: max(curve.lastPeak, bed + cupPeak))
        let levels = looks.map { curve.level(at: $0) }
        let most = levels.max() ?? 0
        guard most < threshold else {
            return BedtimeForecast(bedtime: bed, isPast: false, levelMg: most, roomMg: 0, lastCupBy: nil, isCurfew: true)
        }
        let doses = DoseAtLooks(model: self, looks: looks)
        let spare = levels.map { threshold - $0 }
        var room = Double.infinity
        for (share, left) in zip(doses.shares(takenAt: now), spare) where share > 0 { room = min(room, left / share) }
        let cup = Self.milligramsPerCup
        func fits(_ time: Timestamp) -> Bool {
            !zip(doses.shares(takenAt: time), spare).contains { share, left in cup * share > left }
        }
        var lastCup: Timestamp?
        var minute = (now.milliseconds / 60_000 + 1) * 60_000
        if fits(now) {
            lastCup = now
            while minute <= bed.milliseconds, fits(Timestamp(milliseconds: minute)) {
                lastCup = Timestamp(milliseconds: minute)
                minute += 60_000
            }
        }
        return BedtimeForecast(
            bedtime: bed, isPast: false, levelMg: most, roomMg: Self.roundedDown(room), lastCupBy: lastCup.map { Self.wholeMinute($0.milliseconds, notBefore: now) },
            isCurfew: false)
    }

    /// Down to the hundredth: a room of 12.345 mg is 12.34, never a little more than there is.
    private static func roundedDown(_ mg: Double) -> Double { (mg * 100).rounded(.down) / 100 }

    /// Down to the whole minute ("a cup by 18:40" must not be a minute late), but not before now.
    private static func wholeMinute(_ milliseconds: Int64, notBefore now: Timestamp) -> Timestamp {
        Timestamp(milliseconds: max(now.milliseconds, LocalTime.floorDivide(milliseconds, 60_000) * 60_000))
    }
}

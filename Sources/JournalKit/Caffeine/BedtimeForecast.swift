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
    /// The caffeine in the body at `bedtime`, of every drink logged (ones logged ahead of now too).
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
    ///
    /// What is left at bedtime is linear in what is had now: a dose `x` taken at `now` adds
    /// `x · ½^(h/half-life)` for the `h` hours until bedtime. So the room is what the threshold leaves
    /// over the bedtime level, divided by that factor, and the last cup is the time from which a cup
    /// decays to what is left over.
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
        let level = self.level(at: bed, of: intakes)
        let spare = threshold - level
        let hoursToBed = bed.hours(since: now)
        let room = spare > 0 ? ((spare / pow(0.5, hoursToBed / halfLifeHours)) * 100).rounded(.down) / 100 : 0
        var lastCup: Timestamp?
        if spare > 0 {
            let cup = Self.milligramsPerCup
            // Hours before bedtime a cup must be had for it to decay to `spare`.
            let hoursBefore = spare >= cup ? 0 : halfLifeHours * log2(cup / spare)
            if hoursBefore <= hoursToBed {
                let latest = bed.milliseconds - Int64((hoursBefore * 3_600_000).rounded(.up))
                // Down to the whole minute ("a cup by 18:40" must not be a minute late), but not before now.
                lastCup = Timestamp(milliseconds: max(now.milliseconds, LocalTime.floorDivide(latest, 60_000) * 60_000))
            }
        }
        return BedtimeForecast(bedtime: bed, isPast: false, levelMg: level, roomMg: room, lastCupBy: lastCup, isCurfew: spare <= 0)
    }
}

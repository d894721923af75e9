import Glibc

extension CaffeineModel {
    /// The moment from which the level stays under `threshold` mg, counting every drink (also ones
    /// logged a little ahead of `now`); nil when it already is and nothing is coming.
    ///
    /// By Coffee Tracker's model, between drinks the level only decays, so the answer is in the last stretch that starts at or
    /// above the threshold: the time it decays from there to the threshold.
    public func sleepReadyAt(threshold: Double, now: Timestamp, intakes: [CaffeineIntake]) -> Timestamp? {
        if kind == .personal {
            guard threshold > 0 else { return nil }
            // Rounded up to the whole minute, as below.
            return LevelCurve(model: self, intakes: intakes, from: now).underForGood(threshold, from: now).map {
                Timestamp(milliseconds: ($0.milliseconds + 59_999) / 60_000 * 60_000)
            }
        }
        var starts = [now]
        for intake in intakes where intake.consumedAt > now { starts.append(intake.consumedAt) }
        starts.sort()
        for start in starts.reversed() {
            let level = self.level(at: start, of: intakes)
            guard level >= threshold else { continue }
            guard threshold > 0 else { return nil }
            // At most a year: a huge level or a tiny threshold must not overflow the milliseconds.
            let hours = min(halfLifeHours * log2(level / threshold), 366 * 24)
            // Rounded up to the whole minute: "ready at 01:05" must not be a minute early.
            let crossing = start.milliseconds + Int64((hours * 3_600_000).rounded(.up)) + 1
            return Timestamp(milliseconds: (crossing + 59_999) / 60_000 * 60_000)
        }
        return nil
    }
}

extension CaffeineModel {
    /// When the level, rising at `now` because a drink is still being absorbed, is highest, to the
    /// nearest minute; nil when it is not rising (always, by Coffee Tracker's model).
    public func peaksAt(now: Timestamp, intakes: [CaffeineIntake]) -> Timestamp? {
        guard kind == .personal else { return nil }
        return LevelCurve(model: self, intakes: intakes, from: now).peak(after: now).map {
            Timestamp(milliseconds: ($0.milliseconds + 30_000) / 60_000 * 60_000)
        }
    }
}

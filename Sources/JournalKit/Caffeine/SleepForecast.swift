import Glibc

extension CaffeineModel {
    /// The moment from which the level stays under `threshold` mg, counting every drink (also ones
    /// logged a little ahead of `now`); nil when it already is and nothing is coming.
    ///
    /// Between drinks the level only decays, so the answer is in the last stretch that starts at or
    /// above the threshold: the time it decays from there to the threshold.
    public func sleepReadyAt(threshold: Double, now: Timestamp, intakes: [CaffeineIntake]) -> Timestamp? {
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

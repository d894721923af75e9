import Glibc

/// The level of a set of drinks over time, by one model: what the personal model's forecasts search.
///
/// Coffee Tracker's level only falls between drinks, so its forecasts are closed forms. The personal
/// model's rises for as long as a drink is still being absorbed, so its forecasts look at the level
/// minute by minute up to `lastPeak`, past which every drink has peaked and the level only falls, and
/// narrow a crossing down to the millisecond by bisection.
struct LevelCurve {
    let model: CaffeineModel
    let intakes: [CaffeineIntake]
    /// The earliest instant the curve is asked about: the drinks had by then are summed once, here.
    let from: Timestamp
    /// Each form's drinks had by `from`, as two sums: Σ mg · e^(ke·(t_j - from)) and Σ mg · e^(ka·(t_j - from)),
    /// so that at any t at or after `from` their level is ka/(ka-ke) · (e^(-ke·(t-from)) · the first -
    /// e^(-ka·(t-from)) · the second): the Bateman function of each drink, factored, costs two
    /// exponentials a form rather than two a drink (a window of 57 days at fluvoxamine's half-life
    /// holds thousands of drinks, and a forecast asks about hundreds of instants).
    private let sums: [(form: DrinkForm, eliminated: Double, absorbed: Double)]
    /// The drinks after `from` (logged a little ahead), summed one by one.
    private let later: [CaffeineIntake]

    /// The step of the minute-by-minute look, and the most looks one search takes (a longer span is
    /// looked at in longer steps).
    static let step: Int64 = 60_000
    static let mostSamples: Int64 = 4_000

    /// By the personal model: its rates never meet (ke is at most ln 2 per hour, ka at least 1.5).
    init(model: CaffeineModel, intakes: [CaffeineIntake], from: Timestamp) {
        precondition(model.kind == .personal)
        self.model = model
        self.intakes = intakes
        self.from = from
        var sums: [(form: DrinkForm, eliminated: Double, absorbed: Double)] = []
        for form in DrinkForm.allCases {
            let curve = model.curve(form)
            var eliminated = 0.0, absorbed = 0.0
            for intake in intakes where intake.form == form && intake.consumedAt <= from {
                let hours = intake.consumedAt.hours(since: from)
                eliminated += intake.caffeineMg * exp(curve.eliminationPerHour * hours)
                absorbed += intake.caffeineMg * exp(curve.absorptionPerHour * hours)
            }
            sums.append((form, eliminated, absorbed))
        }
        self.sums = sums
        later = intakes.filter { $0.consumedAt > from }
    }

    func level(at instant: Timestamp) -> Double {
        guard instant >= from else { return model.level(at: instant, of: intakes) }
        let hours = instant.hours(since: from)
        var level = later.reduce(0) { $0 + model.remaining($1, at: instant) }
        for (form, eliminated, absorbed) in sums {
            let curve = model.curve(form)
            let (ka, ke) = (curve.absorptionPerHour, curve.eliminationPerHour)
            level += ka / (ka - ke) * (exp(-ke * hours) * eliminated - exp(-ka * hours) * absorbed)
        }
        return max(0, level)
    }

    /// How fast the level changes at `instant` (at or after `from`), in mg per hour.
    func slope(at instant: Timestamp) -> Double {
        guard instant >= from else {
            return intakes.reduce(0) { sum, intake in
                intake.consumedAt > instant ? sum
                    : sum + intake.caffeineMg * model.slope(intake.form, afterHours: instant.hours(since: intake.consumedAt))
            }
        }
        let hours = instant.hours(since: from)
        var slope = 0.0
        for intake in later where intake.consumedAt <= instant {
            slope += intake.caffeineMg * model.slope(intake.form, afterHours: instant.hours(since: intake.consumedAt))
        }
        for (form, eliminated, absorbed) in sums {
            let curve = model.curve(form)
            let (ka, ke) = (curve.absorptionPerHour, curve.eliminationPerHour)
            slope += ka / (ka - ke) * (ka * exp(-ka * hours) * absorbed - ke * exp(-ke * hours) * eliminated)
        }
        return slope
    }

    /// The moment every drink has peaked by: from then on the level only falls.
    var lastPeak: Timestamp {
        var last = Timestamp(milliseconds: .min)
        for intake in intakes {
            let peak = intake.consumedAt.milliseconds + Int64((model.peakHours(intake.form) * 3_600_000).rounded(.up))
            last = max(last, Timestamp(milliseconds: peak))
        }
        return last
    }

    /// Instants from `start` through `end`, a minute apart (or further apart over a long span), both ends included.
    static func samples(from start: Timestamp, through end: Timestamp) -> [Timestamp] {
        guard end > start else { return [start] }
        let span = end.milliseconds - start.milliseconds
        let step = max(Self.step, (span + Self.mostSamples - 1) / Self.mostSamples)
        var instants = Array(stride(from: start.milliseconds, to: end.milliseconds, by: Int(step)).map { Timestamp(milliseconds: $0) })
        instants.append(end)
        return instants
    }

    /// The first millisecond after `above` (at or over `threshold`) and up to `under` (under it) at which
    /// the level is under `threshold`.
    func firstUnder(_ threshold: Double, after above: Timestamp, by under: Timestamp) -> Timestamp {
        var (low, high) = (above.milliseconds, under.milliseconds)
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if level(at: Timestamp(milliseconds: middle)) >= threshold { low = middle } else { high = middle }
        }
        return Timestamp(milliseconds: high)
    }

    /// The moment from which the level stays under `threshold`; nil when it is under from `now` on.
    func underForGood(_ threshold: Double, from now: Timestamp) -> Timestamp? {
        let end = max(now, lastPeak)
        if level(at: end) >= threshold {
            // Past `end` the level only falls: double the step until it is under, then narrow down.
            var step: Int64 = Self.step
            var under = end + .milliseconds(step)
            let year: Int64 = 366 * 24 * 3_600_000
            while level(at: under) >= threshold {
                guard step < year else { return under }
                step *= 2
                under = end + .milliseconds(step)
            }
            return firstUnder(threshold, after: end, by: under)
        }
        // Before `end` the level may rise and fall: the last look at or over the threshold, and the next.
        let looks = Self.samples(from: now, through: end)
        guard let last = looks.lastIndex(where: { level(at: $0) >= threshold }) else { return nil }
        return firstUnder(threshold, after: looks[last], by: looks[last + 1])
    }

    /// When the level, rising at `now`, is highest, to the millisecond; nil when it is not rising. Past
    /// `lastPeak` it only falls, so the highest is at a look up to then, or within a minute of one. Not
    /// the first moment it stops rising: a drink logged a few minutes ahead starts between two looks,
    /// and the level that pauses for seconds before it goes on rising to a peak of its own; an espresso
    /// peaking beside a soft drink still being absorbed may fall a little and rise again.
    func peak(after now: Timestamp) -> Timestamp? {
        guard slope(at: now) > 0 else { return nil }
        let looks = Self.samples(from: now, through: max(now, lastPeak))
        let levels = looks.map { level(at: $0) }
        let best = levels.indices.max { levels[$0] < levels[$1] }!
        // The highest lies where the slope turns beside the best look: after it while it still rises,
        // else before it.
        let rising = slope(at: looks[best]) > 0
        guard rising ? best + 1 < looks.count : best > 0 else { return looks[best] }
        var (low, high) = rising ? (looks[best].milliseconds, looks[best + 1].milliseconds) : (looks[best - 1].milliseconds, looks[best].milliseconds)
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if slope(at: Timestamp(milliseconds: middle)) > 0 { low = middle } else { high = middle }
        }
        return Timestamp(milliseconds: high)
    }
}

/// The share of one beverage dose at each of a fixed set of looks, for a dose taken at any time up to
/// the first look: the personal model's `BatemanCurve` written as ka/(ka-ke) · (e^(-ke·t)·e^(ke·c) -
/// e^(-ka·t)·e^(ka·c)) for a dose at `c` seen at `t`, so that trying a new time costs two exponentials
/// rather than two a look (the last cup tries every minute of a day).
struct DoseAtLooks {
    let looks: [Timestamp]
    private let scale: Double, ka: Double, ke: Double
    /// e^(-ke·t) and e^(-ka·t) of each look, `t` in hours after the first.
    private let eliminated: [Double], absorbed: [Double]

    init(model: CaffeineModel, looks: [Timestamp]) {
        let curve = model.curve(.beverage)
        (ka, ke) = (curve.absorptionPerHour, curve.eliminationPerHour)
        scale = ka / (ka - ke)
        self.looks = looks
        let first = looks.first ?? Timestamp(milliseconds: 0)
        eliminated = looks.map { exp(-curve.eliminationPerHour * $0.hours(since: first)) }
        absorbed = looks.map { exp(-curve.absorptionPerHour * $0.hours(since: first)) }
    }

    /// The share at each look of a dose taken at `time`, no later than the first look.
    func shares(takenAt time: Timestamp) -> [Double] {
        let hours = time.hours(since: looks.first ?? time)
        let (keep, enter) = (exp(ke * hours), exp(ka * hours))
        return zip(eliminated, absorbed).map { max(0, scale * ($0 * keep - $1 * enter)) }
    }
}

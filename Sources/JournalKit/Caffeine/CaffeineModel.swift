import Glibc

/// How caffeine leaves the body: exponential decay with a half-life (5 hours by default, as in
/// Apple's Coffee Tracker sample).
public struct CaffeineModel: Sendable, Equatable {
    public static let defaultHalfLifeHours = 5.0
    /// One "cup" in cups-today: an 8 oz cup of coffee, as Coffee Tracker counts.
    public static let milligramsPerCup = 96.0

    public let halfLifeHours: Double

    public init(halfLifeHours: Double = CaffeineModel.defaultHalfLifeHours) {
        self.halfLifeHours = halfLifeHours
    }

    /// What is left at `now` of `mg` taken at `consumedAt`; nothing for a drink not yet had.
    public func remaining(_ mg: Double, consumedAt: Timestamp, at now: Timestamp) -> Double {
        guard consumedAt <= now else { return 0 }
        return mg * pow(0.5, now.hours(since: consumedAt) / halfLifeHours)
    }

    /// The caffeine in the body at `now`: the sum of what is left of every drink had by then.
    public func level(at now: Timestamp, of intakes: [CaffeineIntake]) -> Double {
        intakes.reduce(0) { $0 + remaining($1.caffeineMg, consumedAt: $1.consumedAt, at: now) }
    }

    /// Half-lives after which what is left of every drink together no longer shows in the level.
    /// Someone taking 10,000 mg a day, every day (ten lethal doses), keeps from all drinks older than n
    /// half-lives at most 10,000 mg/day x (half-life / ln 2) x 2^-n; for the longest half-life the
    /// settings allow, 48 h, that is 28,850 mg x 2^-n, under 0.002 mg at n = 24, below the hundredth
    /// of a milligram the level is shown to. So the level needs the drinks of this window only.
    public static let negligibleAfterHalfLives = 24.0

    /// How far back a drink can still change the level: 24 half-lives, 120 hours at 5 h.
    public var negligibleAfter: Duration {
        .milliseconds(Int64(Self.negligibleAfterHalfLives * halfLifeHours * 3_600_000))
    }
}

/// An amount of caffeine taken at an instant: all the decay arithmetic needs of a drink.
public struct CaffeineIntake: Hashable, Sendable {
    public var caffeineMg: Double
    public var consumedAt: Timestamp

    public init(caffeineMg: Double, consumedAt: Timestamp) {
        self.caffeineMg = caffeineMg
        self.consumedAt = consumedAt
    }
}

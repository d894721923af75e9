import Glibc

/// How caffeine enters and leaves the body: the model in effect (`JournalSettings.model`), from which
/// every level, forecast and chart of `journal` comes.
///
/// - Coffee Tracker's, as in Apple's sample: the whole dose in the body at the moment of drinking,
///   halved every half-life.
/// - The personal one: each dose absorbed at its form's rate and eliminated at the person's half-life
///   (`BatemanCurve`), so that the level rises for half an hour or more after a drink.
public struct CaffeineModel: Sendable, Equatable {
    /// Which model: the names `config.toml`'s `model` takes.
    public enum Kind: String, Sendable, CaseIterable {
        case coffeeTracker = "coffee-tracker"
        case personal
    }

    /// The mean adult half-life, and Coffee Tracker's.
    public static let defaultHalfLifeHours = 5.0
    public static let defaultHalfLifeSource = "Institute of Medicine 2001: a mean of 5 h, 1.5 to 9.5 h in healthy adults"
    /// The longest half-life the model takes, typed in or from conditions: fluvoxamine's 56 hours
    /// (Culm-Merdek et al. 2005) with room over it.
    public static let longestHalfLifeHours = 72.0
    /// One "cup" in cups-today: an 8 oz cup of coffee, as Coffee Tracker counts.
    public static let milligramsPerCup = 96.0

    public let kind: Kind
    public let halfLifeHours: Double
    /// For the level in mg/L; nil when the person gave none.
    public let weightKg: Double?
    /// The personal model's curve of one dose of each form, made once: `share` is on every path.
    private let beverage: BatemanCurve
    private let slow: BatemanCurve

    public init(kind: Kind = .coffeeTracker, halfLifeHours: Double = CaffeineModel.defaultHalfLifeHours, weightKg: Double? = nil) {
        self.kind = kind
        self.halfLifeHours = halfLifeHours
        self.weightKg = weightKg
        beverage = BatemanCurve(form: .beverage, halfLifeHours: halfLifeHours)
        slow = BatemanCurve(form: .slow, halfLifeHours: halfLifeHours)
    }

    func curve(_ form: DrinkForm) -> BatemanCurve { form == .slow ? slow : beverage }

    /// The share of a dose of `form` in the body `hours` after it was taken; nothing before.
    public func share(_ form: DrinkForm, afterHours hours: Double) -> Double {
        switch kind {
        case .coffeeTracker: hours < 0 ? 0 : pow(0.5, hours / halfLifeHours)
        case .personal: curve(form).share(afterHours: hours)
        }
    }

    /// How fast the share changes `hours` after the dose, per hour: what tells a level still rising.
    func slope(_ form: DrinkForm, afterHours hours: Double) -> Double {
        switch kind {
        case .coffeeTracker: return hours < 0 ? 0 : -M_LN2 / halfLifeHours * pow(0.5, hours / halfLifeHours)
        case .personal: return curve(form).slope(afterHours: hours)
        }
    }

    /// Hours from a dose of `form` to its peak in the body: none for Coffee Tracker's, where it is whole at once.
    public func peakHours(_ form: DrinkForm) -> Double {
        kind == .coffeeTracker ? 0 : curve(form).peakHours
    }

    /// What is left at `now` of `intake`; nothing for a drink not yet had.
    public func remaining(_ intake: CaffeineIntake, at now: Timestamp) -> Double {
        guard intake.consumedAt <= now else { return 0 }
        return intake.caffeineMg * share(intake.form, afterHours: now.hours(since: intake.consumedAt))
    }

    /// The caffeine in the body at `now`: the sum of what is left of every drink had by then.
    public func level(at now: Timestamp, of intakes: [CaffeineIntake]) -> Double {
        intakes.reduce(0) { $0 + remaining($1, at: now) }
    }

    /// The level in mg per litre of the volume caffeine spreads through, with a weight; nil without one.
    public func milligramsPerLitre(_ mg: Double) -> Double? {
        weightKg.map { mg / ($0 * DistributionVolume.litresPerKilogram) }
    }

    /// Half-lives after which what is left of every drink together no longer shows in the level.
    /// Someone taking 10,000 mg a day, every day (ten lethal doses), keeps from all drinks older than n
    /// half-lives at most 10,000 mg/day x (half-life / ln 2) x 2^-n, times ka / (ka - ke) for the
    /// personal model's absorption; for the longest half-life the model takes, 72 h, that is
    /// 43,300 mg x 1.007 x 2^-n, under 0.003 mg at n = 24, below the hundredth of a milligram the level
    /// is shown to. So the level needs the drinks of this window only.
    public static let negligibleAfterHalfLives = 24.0

    /// How far back a drink can still change the level: 24 half-lives, 120 hours at 5 h.
    public var negligibleAfter: Duration {
        .milliseconds(Int64(Self.negligibleAfterHalfLives * halfLifeHours * 3_600_000))
    }
}

/// An amount of caffeine taken at an instant, and how fast it is absorbed: all the model needs of a drink.
public struct CaffeineIntake: Hashable, Sendable {
    public var caffeineMg: Double
    public var consumedAt: Timestamp
    public var form: DrinkForm

    public init(caffeineMg: Double, consumedAt: Timestamp, form: DrinkForm = .beverage) {
        self.caffeineMg = caffeineMg
        self.consumedAt = consumedAt
        self.form = form
    }
}

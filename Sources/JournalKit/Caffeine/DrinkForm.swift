/// How fast a drink's caffeine reaches the blood: the personal model's first-order absorption rate.
///
/// Each rate is chosen so that, at the mean half-life of 5 hours, the level after one drink peaks in the
/// middle of what was measured for its form: `BatemanCurve(form:halfLifeHours: 5).peakHours` is 38.6
/// minutes for a beverage and 1.75 hours for a slow one.
public enum DrinkForm: String, Sendable, CaseIterable, Codable {
    /// Coffee, espresso, tea, energy drinks: the peak 30 to 45 minutes after drinking. Caffeine in water
    /// peaked at 29.8 minutes (SEM 8.1) in ten men (Blanchard & Sawers 1983), 99% absorbed within 45.
    case beverage
    /// Soft drinks and chocolate: the peak after 1.5 to 2 hours, against half an hour for a capsule
    /// (Mumford et al. 1996).
    case slow

    /// The measurements the rate is chosen from.
    public var source: String {
        switch self {
        case .beverage: "Blanchard & Sawers 1983, Eur J Clin Pharmacol 24:93"
        case .slow: "Mumford et al. 1996, Eur J Clin Pharmacol 51:319"
        }
    }

    /// The first-order absorption rate, per hour: the share of what is still in the gut that reaches the
    /// blood each hour, as a rate.
    public var absorptionPerHour: Double {
        switch self {
        case .beverage: 6.0
        case .slow: 1.5
        }
    }
}

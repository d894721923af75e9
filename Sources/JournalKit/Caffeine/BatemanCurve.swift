import Glibc

/// What is left in the body of one dose taken by mouth, as a share of the dose, with the personal
/// model's one compartment: the dose moves from the gut to the blood at the absorption rate `ka` and
/// leaves the blood at the elimination rate `ke`, both first order, all of it absorbed in the end
/// (F = 1: Blanchard & Sawers 1983 measured 108% ± 3.6 by mouth against the vein). The share `h` hours
/// after the dose is the Bateman function
///
///     ka / (ka - ke) · (e^(-ke·h) - e^(-ka·h))
///
/// Caffeine's kinetics are linear over 50-750 mg (Newton et al. 1981), so the level of many drinks is
/// the sum of their curves.
public struct BatemanCurve: Sendable, Equatable {
    /// `ka`, per hour.
    public let absorptionPerHour: Double
    /// `ke`, per hour: ln 2 / the half-life.
    public let eliminationPerHour: Double

    public init(form: DrinkForm, halfLifeHours: Double) {
        absorptionPerHour = form.absorptionPerHour
        eliminationPerHour = M_LN2 / halfLifeHours
    }

    /// The share of a dose in the body `hours` after it was taken: 0 before, and at the moment of taking.
    public func share(afterHours hours: Double) -> Double {
        guard hours > 0 else { return 0 }
        let ka = absorptionPerHour, ke = eliminationPerHour
        // e^(-ke·h) - e^(-ka·h) = e^(-ke·h) · (1 - e^(-(ka-ke)·h)), and 1 - e^(-x) is -expm1(-x): exact
        // when the rates are close, where the difference of the two exponentials loses every digit.
        // Equal rates are the limit, ka · h · e^(-ke·h).
        let gap = ka - ke
        let rising = gap == 0 ? hours : -expm1(-gap * hours) / gap
        return ka * exp(-ke * hours) * rising
    }

    /// How fast the share changes `hours` after the dose, per hour: ka at the moment of taking, 0 at the
    /// peak, negative after; 0 before the dose.
    public func slope(afterHours hours: Double) -> Double {
        guard hours >= 0 else { return 0 }
        let ka = absorptionPerHour, ke = eliminationPerHour
        if ka == ke { return ka * exp(-ke * hours) * (1 - ke * hours) }
        return ka / (ka - ke) * (ka * exp(-ka * hours) - ke * exp(-ke * hours))
    }

    /// Hours from the dose to the curve's peak: ln(ka/ke) / (ka - ke), or 1/ke when the rates are equal.
    public var peakHours: Double {
        let ka = absorptionPerHour, ke = eliminationPerHour
        return ka == ke ? 1 / ke : log(ka / ke) / (ka - ke)
    }
}

import Glibc
import PropertyBased
import Testing
import TestSupport

@testable import JournalKit

/// The personal model's curve of one dose, against an independent computation and against the curve
/// measured in people.
@Suite(.onTestThreads) struct BatemanCurveTests {
    /// The closed form is the solution of its two rate equations: integrated step by step (fourth-order
    /// Runge-Kutta) from the whole dose in the gut, they give the same share at any hour, for both forms
    /// and any half-life the settings allow, and for equal rates, where the closed form takes its limit.
    @Test func theClosedFormSolvesTheRateEquations() async {
        let forms = DrinkForm.allCases
        let input = zip(Gen.int(in: 0...(forms.count - 1)), Gen.double(in: 1...48), Gen.double(in: 0...120), Gen.bool(0.2))
        await checkProperty(count: 200, input: input) { formIndex, halfLife, hours, equalRates in
            let form = forms[formIndex]
            let halfLifeHours = equalRates ? M_LN2 / form.absorptionPerHour : halfLife
            let curve = BatemanCurve(form: form, halfLifeHours: halfLifeHours)
            let integrated = Self.integrate(ka: curve.absorptionPerHour, ke: curve.eliminationPerHour, hours: hours)
            #expect(abs(curve.share(afterHours: hours) - integrated) < 1e-9, "\(form), half-life \(halfLifeHours) h, at \(hours) h")
        }
    }

    /// gut' = -ka·gut, body' = ka·gut - ke·body, from gut = 1, body = 0: the body's share after `hours`.
    static func integrate(ka: Double, ke: Double, hours: Double) -> Double {
        let steps = 20_000
        let dt = hours / Double(steps)
        var gut = 1.0, body = 0.0
        func rates(_ gut: Double, _ body: Double) -> (Double, Double) { (-ka * gut, ka * gut - ke * body) }
        for _ in 0..<steps {
            let k1 = rates(gut, body)
            let k2 = rates(gut + dt / 2 * k1.0, body + dt / 2 * k1.1)
            let k3 = rates(gut + dt / 2 * k2.0, body + dt / 2 * k2.1)
            let k4 = rates(gut + dt * k3.0, body + dt * k3.1)
            gut += dt / 6 * (k1.0 + 2 * k2.0 + 2 * k3.0 + k4.0)
            body += dt / 6 * (k1.1 + 2 * k2.1 + 2 * k3.1 + k4.1)
        }
        return body
    }

    /// Blanchard & Sawers (1983) gave ten men 5 mg/kg of caffeine in water: the plasma peak came at
    /// 29.8 minutes (SEM 8.1) at 10.0 mg/L (SEM 1.0). Over ten men a standard deviation is the SEM
    /// times √10: the model's peak for a beverage, at the mean half-life of 5 hours and the volume of
    /// `DistributionVolume`, is within one of each.
    @Test func aBeverageReproducesBlanchardAndSawers() {
        let curve = BatemanCurve(form: .beverage, halfLifeHours: 5)
        let spread = 10.0.squareRoot()
        let peakMinutes = curve.peakHours * 60
        #expect(abs(peakMinutes - 29.8) <= 8.1 * spread, "peak at \(peakMinutes) min")
        let peakMgPerL = 5 * curve.share(afterHours: curve.peakHours) / DistributionVolume.litresPerKilogram
        #expect(abs(peakMgPerL - 10.0) <= 1.0 * spread, "peak of \(peakMgPerL) mg/L")
        // The peak is the curve's highest point: a minute either side is lower.
        for minutes in [peakMinutes - 1, peakMinutes + 1] {
            #expect(curve.share(afterHours: minutes / 60) < curve.share(afterHours: curve.peakHours))
        }
    }

    /// Each form peaks where its measurements put it, at the mean half-life: a beverage 30 to 45
    /// minutes after drinking, a slow drink after 1.5 to 2 hours (Mumford et al. 1996).
    @Test func eachFormPeaksWhereMeasured() {
        let beverage = BatemanCurve(form: .beverage, halfLifeHours: 5).peakHours * 60
        #expect((30...45).contains(beverage), "beverage peaks at \(beverage) min")
        let slow = BatemanCurve(form: .slow, halfLifeHours: 5).peakHours
        #expect((1.5...2).contains(slow), "slow peaks at \(slow) h")
    }

    /// Long after the peak the curve decays with the half-life, as Coffee Tracker's does from the start:
    /// a day on, each further half-life halves it.
    @Test func afterAbsorptionTheCurveHalvesEachHalfLife() {
        for form in DrinkForm.allCases {
            let curve = BatemanCurve(form: form, halfLifeHours: 5)
            let ratio = curve.share(afterHours: 29) / curve.share(afterHours: 24)
            #expect(abs(ratio - 0.5) < 1e-6, "\(form): \(ratio)")
            #expect(curve.share(afterHours: 0) == 0 && curve.share(afterHours: -1) == 0)
        }
    }

    /// The slope, which tells a level still rising, is the curve's derivative: a central difference
    /// of the share agrees with it, for both forms, any half-life and equal rates.
    @Test func theSlopeIsTheDerivative() async {
        let forms = DrinkForm.allCases
        let input = zip(Gen.int(in: 0...(forms.count - 1)), Gen.double(in: 1...72), Gen.double(in: 0.01...100), Gen.bool(0.2))
        await checkProperty(count: 200, input: input) { formIndex, halfLife, hours, equalRates in
            let form = forms[formIndex]
            let curve = BatemanCurve(form: form, halfLifeHours: equalRates ? M_LN2 / form.absorptionPerHour : halfLife)
            let step = 1e-5
            let difference = (curve.share(afterHours: hours + step) - curve.share(afterHours: hours - step)) / (2 * step)
            #expect(abs(curve.slope(afterHours: hours) - difference) < 1e-6, "\(form), half-life \(halfLife) h, at \(hours) h")
        }
    }
}

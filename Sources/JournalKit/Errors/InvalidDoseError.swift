/// A caffeine amount that cannot be a drink's: negative, not a number, or implausibly large.
public struct InvalidDoseError: JournalFailure, Equatable {
    public let value: Double

    public var kind: FailureKind { .usage }

    public var description: String {
        let shown = value.isNaN ? "nan" : value.isInfinite ? (value < 0 ? "-inf" : "inf") : formatMilligrams(value)
        return "caffeine of \(shown) mg is not possible for one drink: give a number from 0 to "
            + "\(formatMilligrams(CaffeineDose.maximumMg)) mg, such as --mg 80."
    }
}

/// The rule for a drink's caffeine.
public enum CaffeineDose {
    /// More than this in one drink is a typo (an extra zero), not a drink.
    public static let maximumMg: Double = 1000

    public static func validated(_ mg: Double) throws(InvalidDoseError) -> Double {
        guard mg.isFinite, mg >= 0, mg <= maximumMg else { throw InvalidDoseError(value: mg) }
        return mg
    }
}

/// "64" for 64.0, "62.5" for 62.5: milligrams as people write them.
public func formatMilligrams(_ mg: Double) -> String {
    let rounded = (mg * 10).rounded() / 10
    if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return String(rounded)
}

/// The rule for a drink's caffeine.
public enum CaffeineDose {
    /// More than this in one drink is a typo (an extra zero), not a drink.
    public static let maximumMg: Double = 1000

    /// `mg`, or an error when no drink has it: negative, not a number, or more than `maximumMg`.
    public static func validated(_ mg: Double) throws(InvalidRecordError) -> Double {
        guard mg.isFinite, mg >= 0, mg <= maximumMg else {
            throw InvalidRecordError(
                problem: "caffeine of \(formatExactly(mg)) mg is not possible for one drink: it is from 0 to "
                    + "\(formatMilligrams(maximumMg)) mg", kind: .usage, remedy: .giveCaffeine)
        }
        return mg
    }

    /// The caffeine `text` writes, as typed (`--mg`) or read from an export: a decimal number (see
    /// `DecimalText`) in range. A negative number is refused as such, `-0` too: nobody writes it for
    /// nothing, and taking it as 0 would hide the mistake.
    public static func parse(_ text: String) throws(InvalidRecordError) -> Double {
        guard let mg = DecimalText.value(text) else {
            throw InvalidRecordError(
                problem: "'\(TerminalText.quoted(text))' is not a number of mg: write it in decimal, such as 64 or 62.5",
                kind: .usage, remedy: .giveCaffeine)
        }
        guard mg.sign == .plus else {
            throw InvalidRecordError(
                problem: "caffeine of \(TerminalText.quoted(text)) mg is not possible for one drink: it is from 0 to "
                    + "\(formatMilligrams(maximumMg)) mg", kind: .usage, remedy: .giveCaffeine)
        }
        return try validated(mg)
    }
}

/// A number as a person typed it, for messages that refuse it: "-5", "1e+308", "1000.0000000001",
/// "nan". Rounded, a value just past a limit would read as the limit itself.
public func formatExactly(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-inf" : "inf" }
    let rounded = formatMilligrams(value)
    return Double(rounded) == value ? rounded : "\(value)"
}

/// "64" for 64.0, "62.5" for 62.5: milligrams as people write them.
public func formatMilligrams(_ mg: Double) -> String {
    let rounded = (mg * 10).rounded() / 10
    if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return String(rounded)
}

/// `value` rounded to hundredths, as JSON output shows amounts.
public func roundedToHundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }

import JournalKit

/// A dietary caffeine sample of a Health export, as written: `<Record type="HKQuantityTypeIdentifierDietaryCaffeine"
/// sourceName="Coffee Tracker" unit="mg" value="64" startDate="2024-02-28 08:00:00 +0100" ...>`.
struct CaffeineRecord: Sendable {
    static let type = "HKQuantityTypeIdentifierDietaryCaffeine"

    var line: Int
    var sourceName: String
    var unit: String
    var value: String
    var startDate: String
    var endDate: String
    var creationDate: String
    /// `HKMetadataKeySyncIdentifier`: the id the writing app gave the sample, when it gave one.
    var syncIdentifier: String?

    /// What a record becomes: a drink of a known or a source's kind, or why it cannot be one.
    enum Outcome {
        case drink(Drink, kind: DrinkKind)
        case skipped(String)
    }

    /// Every unit HealthKit writes caffeine in, as milligrams per unit.
    static let milligramsPerUnit: [(unit: String, factor: Double)] = [("mg", 1), ("g", 1000), ("mcg", 0.001), ("µg", 0.001), ("ug", 0.001)]

    func drink() -> Outcome {
        guard let factor = Self.milligramsPerUnit.first(where: { $0.unit == unit })?.factor else {
            return .skipped("the unit '\(unit)' is not one HealthKit writes caffeine in (mg, g, mcg)")
        }
        guard let amount = Double(value), amount.isFinite else { return .skipped("the value '\(value)' is not a number") }
        let mg = (amount * factor * 1000).rounded() / 1000
        do { _ = try CaffeineDose.validated(mg) } catch { return .skipped(error.description) }
        guard let consumedAt = Self.instant(startDate) else {
            return .skipped("the start date '\(startDate)' cannot be read (Health writes 2024-02-28 08:00:00 +0100)")
        }
        do { try DrinkRules.check(time: consumedAt) } catch { return .skipped(error.description) }
        let kind = Self.kind(mg: mg, source: sourceName)
        let identity = syncIdentifier.map { "sync|\(sourceName)|\($0)" }
            ?? "sample|\(sourceName)|\(startDate)|\(endDate)|\(value)|\(unit)|\(creationDate)"
        let drink = Drink(id: StableDrinkID.id(for: identity), kind: kind.name, caffeineMg: mg, consumedAt: consumedAt)
        return .drink(drink, kind: kind)
    }

    /// Health's "2024-02-28 08:00:00 +0100", read as the ISO 8601 it nearly is.
    static func instant(_ text: String) -> Timestamp? {
        guard text.utf8.count == 25, text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: 19)] == UInt8(ascii: " ") else { return nil }
        let iso = String(text.prefix(19)) + String(text.suffix(5))
        return try? TimeExpression(now: Timestamp(milliseconds: 0)).parse(iso, allowFuture: true)
    }

    /// The catalog drink whose amount this is, exactly (Coffee Tracker writes exactly its catalog's
    /// amounts); otherwise a drink named for the app that wrote it: `health-caffeine-app`.
    static func kind(mg: Double, source: String) -> DrinkKind {
        if let known = DrinkCatalog.builtIn.kinds.first(where: { $0.caffeineMg == mg }) { return known }
        return CustomDrink(name: sourceKindName(source), caffeineMg: mg).catalogKind
    }

    /// "health-" and the app's name in lowercase letters, digits and dashes, at most 40 characters.
    static func sourceKindName(_ source: String) -> String {
        var slug = ""
        for scalar in source.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        let name = "health-" + (slug.isEmpty ? "app" : slug)
        return String(name.prefix(DrinkRules.maximumNameLength)).trimmingDashes
    }
}

extension String {
    fileprivate var trimmingDashes: String {
        var text = self
        while text.hasSuffix("-") { text.removeLast() }
        return text
    }
}

import JournalKit

/// A dietary caffeine sample of a Health export, as written: `<Record type="HKQuantityTypeIdentifierDietaryCaffeine"
/// sourceName="Coffee Tracker" unit="mg" value="64" startDate="2024-02-28 08:00:00 +0100" ...>`, its
/// values as the scanner kept them (a value too long for that is only its start and its length).
struct CaffeineRecord {
    static let type = Array("HKQuantityTypeIdentifierDietaryCaffeine".utf8)

    var line: Int
    var sourceName: HealthXMLValue
    var unit: HealthXMLValue
    var value: HealthXMLValue
    var startDate: HealthXMLValue
    var endDate: HealthXMLValue
    var creationDate: HealthXMLValue
    /// `HKMetadataKeySyncIdentifier`: the id the writing app gave the sample, when it gave one.
    var syncIdentifier: HealthXMLValue?

    /// The caffeine sample a `Record` element is; nil for a record of another type.
    init?(_ element: HealthXMLElement) {
        let attributes = element.attributes
        guard element.kind == .record, attributes.has(.type, Self.type) else { return nil }
        let empty = HealthXMLValue(text: "", length: 0)
        line = element.line
        sourceName = attributes.value(.sourceName) ?? empty
        unit = attributes.value(.unit) ?? empty
        value = attributes.value(.value) ?? empty
        startDate = attributes.value(.startDate) ?? empty
        endDate = attributes.value(.endDate) ?? empty
        creationDate = attributes.value(.creationDate) ?? empty
    }

    /// What a record becomes: a drink of a known or a source's kind, or why it cannot be one.
    enum Outcome {
        case drink(Drink, kind: DrinkKind)
        case skipped(String)
    }

    /// Every unit HealthKit writes caffeine in, as milligrams per unit.
    static let milligramsPerUnit: [(unit: String, factor: Double)] = [("mg", 1), ("g", 1000), ("mcg", 0.001), ("µg", 0.001), ("ug", 0.001)]

    /// The drink this sample is, by the rules of every way in: a decimal amount in range, a time
    /// between 1900 and 2199 and not ahead of `now`.
    func drink(now: Timestamp) -> Outcome {
        // A value cut short can be neither read nor part of the sample's identity.
        var fields = [("app name", sourceName), ("unit", unit), ("value", value), ("start date", startDate),
                      ("end date", endDate), ("creation date", creationDate)]
        if let syncIdentifier { fields.append(("sync identifier", syncIdentifier)) }
        if let (name, long) = fields.first(where: { !$0.1.isWhole }) {
            return .skipped("the \(name) \(Self.quoted(long)) is \(long.length) bytes long, more than a sample's can be")
        }
        guard let factor = Self.milligramsPerUnit.first(where: { $0.unit == unit.text })?.factor else {
            return .skipped("the unit \(Self.quoted(unit)) is not one HealthKit writes caffeine in (mg, g, mcg)")
        }
        guard let amount = DecimalText.value(value.text) else {
            return .skipped("the value \(Self.quoted(value)) is not a decimal number")
        }
        guard amount.sign == .plus else { return .skipped("the value \(Self.quoted(value)) is negative") }
        let mg = (amount * factor * 1000).rounded() / 1000
        do { _ = try CaffeineDose.validated(mg) } catch { return .skipped(error.description) }
        guard let consumedAt = HealthDate.instant(startDate.text) else {
            return .skipped("the start date \(Self.quoted(startDate)) cannot be read (Health writes 2024-02-28 08:00:00 +0100)")
        }
        do { try DrinkRules.check(time: consumedAt) } catch { return .skipped(error.description) }
        guard EntryRules.allows(consumedAt, now: now) else {
            return .skipped("the start date \(Self.quoted(startDate)) is in the future")
        }
        let kind = Self.kind(mg: mg, source: sourceName.text)
        let identity = syncIdentifier.map { "sync|\(sourceName.text)|\($0.text)" }
            ?? "sample|\(sourceName.text)|\(startDate.text)|\(endDate.text)|\(value.text)|\(unit.text)|\(creationDate.text)"
        let drink = Drink(id: StableDrinkID.id(for: identity), kind: kind.name, caffeineMg: mg, consumedAt: consumedAt)
        return .drink(drink, kind: kind)
    }

    /// Why a sample is not imported when another of its id, read before it, was with other values.
    static func reason(for conflict: ImportStaging.Conflict) -> String {
        let identifier = conflict.label.map { " (sync identifier \(TerminalText.quoted($0)))" } ?? ""
        return "the same sample as line \(conflict.firstLine)\(identifier) with another value; the first was kept"
    }

    /// A value as a message quotes it: its first 80 characters, escaped, and an ellipsis when cut.
    static func quoted(_ value: HealthXMLValue) -> String {
        let shown = TerminalText.quoted(value.text)
        return "'" + shown + (value.isWhole || shown.hasSuffix("…") ? "" : "…") + "'"
    }

    /// The amounts a sample is taken as a catalog drink by: Coffee Tracker's catalog and the Mayo
    /// Clinic's figures the journal's began with, fixed, whatever the catalog says today (Coffee
    /// Tracker writes exactly its catalog's amounts: its energy drink is still 29 mg, the catalog's
    /// 80). A sample of another amount is its app's drink: 150 mg is not taken for a latte.
    static let catalogFigures: [(mg: Double, name: String)] = [
        (96, "small-coffee"), (144, "medium-coffee"), (192, "large-coffee"), (64, "espresso"), (128, "double-espresso"),
        (256, "quad-espresso"), (47, "black-tea"), (28, "green-tea"), (22, "soft-drink"), (29, "energy-drink"), (18, "chocolate"),
        (1, "decaf-coffee"), (62, "instant-coffee"), (200, "energy-shot"),
    ]

    /// The catalog drink whose amount this is, exactly (`catalogFigures`); otherwise a drink named
    /// for the app that wrote it: `health-caffeine-app`.
    static func kind(mg: Double, source: String) -> DrinkKind {
        if let figure = catalogFigures.first(where: { $0.mg == mg }), let known = DrinkCatalog.builtIn.kind(named: figure.name) {
            return known
        }
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

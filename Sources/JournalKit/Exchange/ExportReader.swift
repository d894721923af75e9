import FoundationEssentials

/// What an export holds: its drinks, and the drinks of the person's own it defines that the
/// importing journal did not know.
public struct ImportedExport: Sendable, Equatable {
    public let drinks: [Drink]
    public let customDrinks: [CustomDrink]
}

extension DrinkExchange {
    /// Reads an export (JSON when it starts with `[`, CSV otherwise). Every record is checked, the
    /// first bad one is reported with its place in the file, and then nothing is imported. A drink
    /// `catalog` does not know is taken as a custom drink when the export defines it.
    public static func parse(
        _ bytes: [UInt8], catalog: DrinkCatalog, now: Timestamp
    ) throws(ImportFormatError) -> ImportedExport {
        let records: [(location: String, fields: [String: String?])]
        let first = bytes.first(where: { ![32, 9, 10, 13, 0xEF, 0xBB, 0xBF].contains($0) })
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            records = try jsonRecords(bytes)
        } else {
            records = try csvRecords(bytes)
        }
        var byID: [DrinkID: Drink] = [:]
        var drinks: [Drink] = []
        var defined: [String: CustomDrink] = [:]
        for record in records {
            let (drink, definition) = try drink(from: record.fields, at: record.location, catalog: catalog, now: now)
            if let definition { defined[definition.name] = definition }
            if let earlier = byID[drink.id] {
                guard earlier == drink else {
                    throw ImportFormatError(
                        location: record.location, problem: "id \(drink.id) appears earlier with different values")
                }
                continue
            }
            byID[drink.id] = drink
            drinks.append(drink)
        }
        return ImportedExport(drinks: drinks, customDrinks: defined.keys.sorted().map { defined[$0]! })
    }

    private static func jsonRecords(_ bytes: [UInt8]) throws(ImportFormatError) -> [(location: String, fields: [String: String?])] {
        let elements: [ImportedFields]
        do {
            elements = try JSONDecoder().decode([ImportedFields].self, from: Data(bytes))
        } catch let error as DecodingError {
            throw ImportFormatError(decoding: error)
        } catch {
            throw ImportFormatError(location: "the file", problem: "\(error)")
        }
        return elements.enumerated().map { ("element \($0.offset + 1)", $0.element.fields) }
    }

    private static func csvRecords(_ bytes: [UInt8]) throws(ImportFormatError) -> [(location: String, fields: [String: String?])] {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.prefix(4096).contains(0) {
            throw ImportFormatError(
                location: "the file", problem: "it is UTF-16 or binary, not UTF-8 text; save the export as UTF-8 and import that")
        }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let rows = try CSV.records(text)
        guard let header = rows.first else {
            throw ImportFormatError(location: "the file", problem: "it is empty; an export has at least its header line")
        }
        let names = header.fields.map { $0.trimmingSpaces.lowercased() }
        for required in ["id", "drink", "caffeine_mg", "consumed_at"] where !names.contains(required) {
            throw ImportFormatError(
                location: "line 1", problem: "the header has no '\(required)' column (expected \(DrinkExchange.fields.joined(separator: ",")))")
        }
        return try rows.dropFirst().map { row throws(ImportFormatError) in
            guard row.fields.count == names.count else {
                throw ImportFormatError(
                    location: "line \(row.line)", problem: "\(row.fields.count) fields where the header has \(names.count)")
            }
            var fields: [String: String?] = [:]
            for (name, value) in zip(names, row.fields) {
                fields[name] = value.isEmpty && (name == "note" || name == "drink_serving_mg") ? .some(nil) : CSV.unguarded(value)
            }
            return ("line \(row.line)", fields)
        }
    }

    /// The drink of one record, and the custom drink it defines when the catalog lacks it.
    private static func drink(
        from fields: [String: String?], at location: String, catalog: DrinkCatalog, now: Timestamp
    ) throws(ImportFormatError) -> (Drink, CustomDrink?) {
        func fail(_ problem: String) -> ImportFormatError { ImportFormatError(location: location, problem: problem) }
        if let unknown = fields.keys.sorted().first(where: { !DrinkExchange.fields.contains($0) }) {
            throw fail("unknown field '\(unknown)' (the fields are \(DrinkExchange.fields.joined(separator: ", ")))")
        }
        func required(_ key: String) throws(ImportFormatError) -> String {
            guard case let value?? = fields[key], !value.trimmingSpaces.isEmpty else { throw fail("\(key) is missing") }
            return value.trimmingSpaces
        }
        // An amount is read as every way in reads one (`CaffeineDose.parse`), said by its field's name.
        func amount(_ key: String, _ text: String) throws(ImportFormatError) -> Double {
            guard DecimalText.value(text) != nil else { throw fail("\(key) '\(TerminalText.quoted(text))' is not a number") }
            do { return try CaffeineDose.parse(text) } catch { throw ImportFormatError(location: location, failure: error) }
        }
        let idText = try required("id")
        guard let id = UUIDText.canonical(idText) else { throw fail("id '\(idText)' is not a UUID") }
        let name = try required("drink")
        var definition: CustomDrink?
        let kind: String
        let serving = fields["drink_serving_mg"].flatMap { $0 }.flatMap { $0.isEmpty ? nil : $0 }
        // A drink of one's own by the name of one the catalog gained since (an earlier journal's
        // "latte") is defined as it was: its export says so by its serving.
        if let known = catalog.kind(named: name), !(known.isLaterAddition && serving != nil) {
            kind = known.name
        } else if let serving {
            let mg = try amount("drink_serving_mg", serving.trimmingSpaces)
            let custom = CustomDrink(name: DrinkCatalog.normalized(name), caffeineMg: mg)
            do { try custom.validate() } catch { throw ImportFormatError(location: location, failure: error) }
            do { try catalog.refuseLookalike(of: custom.name) } catch { throw ImportFormatError(location: location, failure: error) }
            definition = custom
            kind = custom.name
        } else {
            do { _ = try catalog.resolve(name) } catch { throw ImportFormatError(location: location, failure: error) }
            kind = name
        }
        let mgText = try required("caffeine_mg")
        let mg = try amount("caffeine_mg", mgText)
        let timeText = try required("consumed_at")
        guard ISO8601Reader.looksLikeDate(timeText) else {
            throw fail("consumed_at '\(timeText)' is not an ISO 8601 time such as 2026-11-21T08:30:00+01:00")
        }
        let consumedAt: Timestamp
        do { consumedAt = try ISO8601Reader.parse(timeText) } catch { throw fail(error.description) }
        do { try EntryRules.check(time: consumedAt, now: now, what: "consumed_at \(timeText)") } catch {
            throw ImportFormatError(location: location, failure: error)
        }
        let note = fields["note"].flatMap { $0 }
        let drink = Drink(
            id: DrinkID(rawValue: id), kind: kind, caffeineMg: mg,
            consumedAt: consumedAt, note: note?.isEmpty == true ? nil : note)
        do { try drink.validate() } catch { throw ImportFormatError(location: location, failure: error) }
        return (drink, definition)
    }
}

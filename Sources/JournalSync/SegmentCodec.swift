import JournalKit

/// The plaintext of a segment, in one of two formats:
///
/// - format 1, drink records only: a JSON array of `[id, kind, caffeine_mg, consumed_at_ms, note|null,
///   deleted, hlc, origin]`;
/// - format 2, also custom drinks: `{"drinks": [...as format 1...], "kinds": [[name, caffeine_mg,
///   deleted, hlc, origin], ...]}`.
///
/// A segment without custom drinks is still written as format 1, so journals that predate custom
/// drinks keep reading it; one with them is format 2, which those journals refuse by its number
/// rather than misread. Clocks are strings: JSON numbers lose integers above 2^53.
enum SegmentCodec {
    /// The newest segment format this journal writes and reads.
    static let format: UInt8 = 2

    /// The plaintext and the format it is in.
    static func encode(_ revisions: [DrinkRevision], kinds: [DrinkKindRevision] = []) -> (format: UInt8, bytes: [UInt8]) {
        var drinks: [JSONValue] = []
        drinks.reserveCapacity(revisions.count)
        for revision in revisions {
            let drink = revision.drink
            drinks.append(.array([
                .string(drink.id.rawValue), .string(drink.kind), .number(drink.caffeineMg),
                .number(Double(drink.consumedAt.milliseconds)), .optional(drink.note),
                .number(revision.isDeleted ? 1 : 0), .string(String(revision.clock.rawValue)),
                .string(revision.origin.rawValue),
            ]))
        }
        guard !kinds.isEmpty else { return (1, Array(JSONValue.array(drinks).text.utf8)) }
        let kindRecords: [JSONValue] = kinds.map { kind in
            .array([
                .string(kind.name), .number(kind.caffeineMg), .number(kind.isDeleted ? 1 : 0),
                .string(String(kind.clock.rawValue)), .string(kind.origin.rawValue),
            ])
        }
        return (2, Array(JSONValue.object([("drinks", .array(drinks)), ("kinds", .array(kindRecords))]).text.utf8))
    }

    static func decode(_ bytes: [UInt8], format: UInt8) throws(SegmentContentError) -> (drinks: [DrinkRevision], kinds: [DrinkKindRevision]) {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch { throw SegmentContentError(error.description) }
        switch (format, value) {
        case (1, .array(let records)):
            return (try drinks(records), [])
        case (2, .object(let members)):
            var drinkRecords: [JSONValue]?
            var kindRecords: [JSONValue]?
            for (key, member) in members {
                if key == "drinks", case .array(let list) = member { drinkRecords = list }
                if key == "kinds", case .array(let list) = member { kindRecords = list }
            }
            guard let drinkRecords, let kindRecords else { throw SegmentContentError("it lacks its drinks or kinds") }
            return (try drinks(drinkRecords), try kinds(kindRecords))
        default:
            throw SegmentContentError("its content does not match its format \(format)")
        }
    }

    private static func drinks(_ records: [JSONValue]) throws(SegmentContentError) -> [DrinkRevision] {
        var revisions: [DrinkRevision] = []
        revisions.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            guard case .array(let fields) = record, fields.count == 8,
                case .string(let id) = fields[0], case .string(let kind) = fields[1],
                case .number(let mg) = fields[2], case .number(let consumedAt) = fields[3],
                case .number(let deleted) = fields[5], case .string(let clockText) = fields[6],
                let clock = Int64(clockText), HybridTimestamp.isPlausible(clock), case .string(let origin) = fields[7],
                RandomIdentifier.normalizedUUID(id) == id, mg.isFinite, mg >= 0, mg <= CaffeineDose.maximumMg,
                consumedAt == consumedAt.rounded(), abs(consumedAt) < 9e15, deleted == 0 || deleted == 1
            else { throw SegmentContentError("drink record \(index + 1) is malformed") }
            let note: String?
            switch fields[4] {
            case .null: note = nil
            case .string(let text): note = text
            default: throw SegmentContentError("drink record \(index + 1) is malformed")
            }
            revisions.append(DrinkRevision(
                drink: Drink(
                    id: DrinkID(rawValue: id), kind: kind, caffeineMg: mg,
                    consumedAt: Timestamp(milliseconds: Int64(consumedAt)), note: note),
                isDeleted: deleted == 1, clock: HybridTimestamp(rawValue: clock), origin: DeviceID(rawValue: origin),
                sequence: 0))
        }
        return revisions
    }

    private static func kinds(_ records: [JSONValue]) throws(SegmentContentError) -> [DrinkKindRevision] {
        var kinds: [DrinkKindRevision] = []
        for (index, record) in records.enumerated() {
            guard case .array(let fields) = record, fields.count == 5,
                case .string(let name) = fields[0], case .number(let mg) = fields[1],
                case .number(let deleted) = fields[2], case .string(let clockText) = fields[3],
                let clock = Int64(clockText), HybridTimestamp.isPlausible(clock), case .string(let origin) = fields[4],
                !name.isEmpty, name.count <= 40, mg.isFinite, mg >= 0, mg <= CaffeineDose.maximumMg,
                deleted == 0 || deleted == 1
            else { throw SegmentContentError("custom drink record \(index + 1) is malformed") }
            kinds.append(DrinkKindRevision(
                name: name, caffeineMg: mg, isDeleted: deleted == 1, clock: HybridTimestamp(rawValue: clock),
                origin: DeviceID(rawValue: origin), sequence: 0))
        }
        return kinds
    }
}

/// A segment that opened (so it is authentic) but whose content this journal cannot use.
struct SegmentContentError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

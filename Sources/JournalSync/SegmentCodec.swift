import JournalKit

/// The plaintext of a segment: the whole state of each drink record, as a JSON array of arrays
/// `[id, kind, caffeine_mg, consumed_at_ms, note|null, deleted, hlc, origin]`. The clock is a string:
/// JSON numbers lose integers above 2^53.
enum SegmentCodec {
    /// The segment format this journal writes and reads.
    static let format: UInt8 = 1

    static func encode(_ revisions: [DrinkRevision]) -> [UInt8] {
        var records: [JSONValue] = []
        records.reserveCapacity(revisions.count)
        for revision in revisions {
            let drink = revision.drink
            records.append(.array([
                .string(drink.id.rawValue), .string(drink.kind), .number(drink.caffeineMg),
                .number(Double(drink.consumedAt.milliseconds)), .optional(drink.note),
                .number(revision.isDeleted ? 1 : 0), .string(String(revision.clock.rawValue)),
                .string(revision.origin.rawValue),
            ]))
        }
        return Array(JSONValue.array(records).text.utf8)
    }

    static func decode(_ bytes: [UInt8]) throws(SegmentContentError) -> [DrinkRevision] {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch { throw SegmentContentError(error.description) }
        guard case .array(let records) = value else { throw SegmentContentError("it holds no list of records") }
        var revisions: [DrinkRevision] = []
        revisions.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            guard case .array(let fields) = record, fields.count == 8,
                case .string(let id) = fields[0], case .string(let kind) = fields[1],
                case .number(let mg) = fields[2], case .number(let consumedAt) = fields[3],
                case .number(let deleted) = fields[5], case .string(let clockText) = fields[6],
                let clock = Int64(clockText), case .string(let origin) = fields[7],
                RandomIdentifier.normalizedUUID(id) == id, mg.isFinite, mg >= 0, mg <= CaffeineDose.maximumMg,
                consumedAt == consumedAt.rounded(), abs(consumedAt) < 9e15, deleted == 0 || deleted == 1
            else { throw SegmentContentError("record \(index + 1) is malformed") }
            let note: String?
            switch fields[4] {
            case .null: note = nil
            case .string(let text): note = text
            default: throw SegmentContentError("record \(index + 1) is malformed")
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
}

/// A segment that opened (so it is authentic) but whose content this journal cannot use.
struct SegmentContentError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

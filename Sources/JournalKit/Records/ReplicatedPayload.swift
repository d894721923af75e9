/// What a kind of replicated record holds: a drink, a custom drink, and whatever kind comes next.
///
/// A new kind is a new payload type: its fields, its key, its rule and its table. Merging, the change
/// sequence, publishing, applying and the segment layout are the same for every kind.
public protocol ReplicatedPayload: Hashable, Sendable {
    /// The kind's name in segments and messages.
    static var kind: RecordKind { get }
    /// What names the record on every device: a drink's id, a custom drink's name.
    var key: String { get }
    /// The one rule for a record of this kind, whichever way it comes: the command line, an import,
    /// another device.
    func validate() throws(InvalidRecordError)
    /// When what the record tells of happened, as a person entered it (a drink's time); nil for a kind
    /// without one. No later than `EntryRules` lets a person enter at the time the record was written.
    var occurredAt: Timestamp? { get }
    /// The lowest segment format that carries this record: its kind's, or a later one when a field
    /// holds what a journal of the kind's format refuses (a drink name beyond ASCII).
    var segmentFormat: UInt8 { get }
    /// Writes the payload's fields, in their fixed order, as the first elements of the record's array.
    func encodeFields(to container: inout some UnkeyedEncodingContainer) throws
    /// Reads what `encodeFields` wrote.
    init(fieldsFrom container: inout some UnkeyedDecodingContainer) throws
}

/// A kind of replicated record, as segments and messages name it.
public struct RecordKind: Hashable, Sendable, CustomStringConvertible {
    /// The key its records are listed under in a segment.
    public let segmentKey: String
    /// "drink", "custom drink".
    public let noun: String
    /// The segment format that introduced it: a segment holding it is at least this format, so a
    /// journal that predates the kind refuses the segment by its number instead of misreading it.
    public let format: UInt8

    public var description: String { noun }
}

extension Replicated: Encodable where Payload: ReplicatedPayload {
    /// A record is one JSON array: the payload's fields, then deleted (0 or 1), the clock (a string:
    /// JSON numbers lose integers above 2^53) and the origin.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try payload.encodeFields(to: &container)
        try container.encode(isDeleted ? 1 : 0)
        try container.encode(String(clock.rawValue))
        try container.encode(origin.rawValue)
    }
}

extension Replicated: Decodable where Payload: ReplicatedPayload {
    /// Reads a record and checks it against the rules: one that fails them is an error.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let payload = try Payload(fieldsFrom: &container)
        let deleted = try container.decode(Int.self)
        guard let clock = Int64(try container.decode(String.self)) else {
            throw InvalidRecordError(problem: "its clock is not an integer", kind: .badData)
        }
        let origin = try container.decode(String.self)
        guard deleted == 0 || deleted == 1 else { throw InvalidRecordError(problem: "its deleted flag is \(deleted)", kind: .badData) }
        guard container.isAtEnd else { throw InvalidRecordError(problem: "it has more fields than a \(Payload.kind) has", kind: .badData) }
        self.init(
            payload: payload, isDeleted: deleted == 1, clock: HybridTimestamp(rawValue: clock),
            origin: DeviceID(rawValue: origin), sequence: 0)
        try validate()
    }
}

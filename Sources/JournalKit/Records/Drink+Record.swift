extension Drink: StoredPayload {
    public static let kind = RecordKind(segmentKey: "drinks", noun: "drink", format: 1)

    static let tableName = "drinks"
    static let table = RecordTable<Drink>(name: tableName, payloadColumns: ["id", "kind", "caffeine_mg", "consumed_at", "note"])

    public var key: String { id.rawValue }

    public var segmentFormat: UInt8 { DrinkName.segmentFormat(of: kind, otherwise: Self.kind.format) }

    public var occurredAt: Timestamp? { consumedAt }

    public func validate() throws(InvalidRecordError) {
        try DrinkRules.check(id: id.rawValue)
        try DrinkRules.check(name: kind)
        try DrinkRules.check(caffeineMg: caffeineMg)
        try DrinkRules.check(time: consumedAt)
        try DrinkRules.check(note: note)
    }

    /// `[id, kind, caffeine_mg, consumed_at_ms, note|null]`
    public func encodeFields(to container: inout some UnkeyedEncodingContainer) throws {
        try container.encode(id.rawValue)
        try container.encode(kind)
        try container.encode(caffeineMg)
        try container.encode(consumedAt.milliseconds)
        if let note { try container.encode(note) } else { try container.encodeNil() }
    }

    public init(fieldsFrom container: inout some UnkeyedDecodingContainer) throws {
        self.init(
            id: DrinkID(rawValue: try container.decode(String.self)), kind: try container.decode(String.self),
            caffeineMg: try container.decode(Double.self), consumedAt: Timestamp(milliseconds: try container.decode(Int64.self)),
            note: try container.decodeNil() ? nil : try container.decode(String.self))
    }

    init(row: SQLiteStatement) {
        self.init(
            id: DrinkID(rawValue: row.text(0)), kind: row.text(1), caffeineMg: row.double(2),
            consumedAt: Timestamp(milliseconds: row.int64(3)), note: row.optionalText(4))
    }

    var columnValues: [SQLiteValue] {
        [.text(id.rawValue), .text(kind), .real(caffeineMg), .integer(consumedAt.milliseconds), .text(orNull: note)]
    }
}

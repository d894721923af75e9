extension Night: StoredPayload {
    /// Listed as "nights" in segments, which segment format 5 brought: a journal from before refuses
    /// a segment holding one by its number, instead of misreading it.
    public static let kind = RecordKind(segmentKey: "nights", noun: "night", format: 5)

    static let tableName = "nights"
    static let table = RecordTable<Night>(
        name: tableName, payloadColumns: ["night", "in_bed_at", "asleep_at", "woke_at", "asleep_ms", "awakenings", "source"])

    public var key: String { date.description }

    public var segmentFormat: UInt8 { Self.kind.format }

    /// When the night ended: no later than a person could enter it when the record was written.
    public var occurredAt: Timestamp? { wokeAt }

    public func validate() throws(InvalidRecordError) { try NightRules.check(self) }

    /// `[night, in_bed_at_ms, asleep_at_ms, woke_at_ms, asleep_ms, awakenings, source]`
    public func encodeFields(to container: inout some UnkeyedEncodingContainer) throws {
        try container.encode(date.description)
        try container.encode(inBedAt.milliseconds)
        try container.encode(asleepAt.milliseconds)
        try container.encode(wokeAt.milliseconds)
        try container.encode(asleepMilliseconds)
        try container.encode(awakenings)
        try container.encode(source)
    }

    public init(fieldsFrom container: inout some UnkeyedDecodingContainer) throws {
        let text = try container.decode(String.self)
        guard let date = NightDate.parse(text) else {
            throw InvalidRecordError(problem: "'\(TerminalText.quoted(text))' is not a night's date", kind: .badData)
        }
        self.init(
            date: date, inBedAt: Timestamp(milliseconds: try container.decode(Int64.self)),
            asleepAt: Timestamp(milliseconds: try container.decode(Int64.self)), wokeAt: Timestamp(milliseconds: try container.decode(Int64.self)),
            asleepMilliseconds: try container.decode(Int64.self), awakenings: try container.decode(Int.self), source: try container.decode(String.self))
    }

    init(row: SQLiteStatement) {
        self.init(
            date: NightDate.parse(row.text(0)) ?? LocalDate(year: 1900, month: 1, day: 1), inBedAt: Timestamp(milliseconds: row.int64(1)),
            asleepAt: Timestamp(milliseconds: row.int64(2)), wokeAt: Timestamp(milliseconds: row.int64(3)), asleepMilliseconds: row.int64(4),
            awakenings: Int(row.int64(5)), source: row.text(6))
    }

    var columnValues: [SQLiteValue] {
        [.text(date.description), .integer(inBedAt.milliseconds), .integer(asleepAt.milliseconds), .integer(wokeAt.milliseconds),
         .integer(asleepMilliseconds), .integer(Int64(awakenings)), .text(source)]
    }
}

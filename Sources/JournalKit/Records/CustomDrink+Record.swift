extension CustomDrink: StoredPayload {
    /// Listed as "kinds" in segments, the name segment format 2 gave them.
    public static let kind = RecordKind(segmentKey: "kinds", noun: "custom drink", format: 2)

    static let table = RecordTable<CustomDrink>(name: "custom_drinks", payloadColumns: ["name", "caffeine_mg"])

    public var key: String { name }

    public var segmentFormat: UInt8 { DrinkName.segmentFormat(of: name, otherwise: Self.kind.format) }

    /// A definition, not something had at a time.
    public var occurredAt: Timestamp? { nil }

    /// A custom drink may not take a built-in drink's name or alias: it would shadow it. Compared as
    /// every journal compares a record's name (`DrinkName.earlierCanonical`), so that they all refuse
    /// the same records.
    public func validate() throws(InvalidRecordError) {
        try DrinkRules.check(name: name)
        try DrinkRules.check(caffeineMg: caffeineMg)
        guard DrinkCatalog.builtIn.kind(canonicallyNamed: DrinkName.earlierCanonical(name)) == nil else {
            throw InvalidRecordError(
                problem: "'\(name)' is a built-in drink, so a drink of your own cannot have that name", kind: .usage,
                remedy: .renameOrGiveCaffeine)
        }
    }

    /// `[name, caffeine_mg]`
    public func encodeFields(to container: inout some UnkeyedEncodingContainer) throws {
        try container.encode(name)
        try container.encode(caffeineMg)
    }

    public init(fieldsFrom container: inout some UnkeyedDecodingContainer) throws {
        self.init(name: try container.decode(String.self), caffeineMg: try container.decode(Double.self))
    }

    init(row: SQLiteStatement) {
        self.init(name: row.text(0), caffeineMg: row.double(1))
    }

    var columnValues: [SQLiteValue] { [.text(name), .real(caffeineMg)] }
}

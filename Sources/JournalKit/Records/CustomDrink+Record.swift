extension CustomDrink: StoredPayload {
    /// Listed as "kinds" in segments, the name segment format 2 gave them.
    public static let kind = RecordKind(segmentKey: "kinds", noun: "custom drink", format: 2)

    static let tableName = "custom_drinks"
    static let table = RecordTable<CustomDrink>(name: tableName, payloadColumns: ["name", "caffeine_mg", "form"])

    /// The segment format that carries a drink's form: a journal from before refuses a segment with a
    /// slow drink of one's own by its number, where it would refuse the record as having a field too many.
    static let formFormat: UInt8 = 5

    public var key: String { name }

    public var segmentFormat: UInt8 {
        max(DrinkName.segmentFormat(of: name, otherwise: Self.kind.format), form == .slow ? Self.formFormat : 0)
    }

    /// A definition, not something had at a time.
    public var occurredAt: Timestamp? { nil }

    /// A custom drink may not take a built-in drink's name or alias: it would shadow it. Compared as
    /// every journal compares a record's name (`DrinkName.earlierCanonical`), so that they all refuse
    /// the same records: the names of the drinks every version's catalog has, not those a later one
    /// gained (`isLaterAddition`), which a journal of an earlier version took, and takes, for a drink
    /// of one's own (a new one is refused where it is defined, `JournalStore.defineDrink`).
    public func validate() throws(InvalidRecordError) {
        try DrinkRules.check(name: name)
        try DrinkRules.check(caffeineMg: caffeineMg)
        guard DrinkCatalog.builtIn.kind(canonicallyNamed: DrinkName.earlierCanonical(name)).map({ !$0.isLaterAddition }) != true else {
            throw InvalidRecordError(
                problem: "'\(name)' is a built-in drink, so a drink of your own cannot have that name", kind: .usage,
                remedy: .renameOrGiveCaffeine)
        }
    }

    /// `[name, caffeine_mg]`, and `"slow"` after them for a slow drink: a beverage is written as
    /// before forms were, so that a journal from before reads it.
    public func encodeFields(to container: inout some UnkeyedEncodingContainer) throws {
        try container.encode(name)
        try container.encode(caffeineMg)
        if form != .beverage { try container.encode(form.rawValue) }
    }

    /// Reads what `encodeFields` wrote. The form is told from the field after the caffeine by its
    /// type: a string is a form, anything else (the deleted flag, a number) is not the payload's. A
    /// decode of the wrong type leaves the container where it was (Foundation's JSONDecoder, which
    /// reads segments; `SegmentFormatTests.aDrinkOfOnesOwnReadsWithAndWithoutItsForm` checks both shapes).
    public init(fieldsFrom container: inout some UnkeyedDecodingContainer) throws {
        let name = try container.decode(String.self), caffeineMg = try container.decode(Double.self)
        var form = DrinkForm.beverage
        let before = container.currentIndex
        if let text = try? container.decode(String.self) {
            guard let named = DrinkForm(rawValue: text) else {
                throw InvalidRecordError(problem: "'\(TerminalText.quoted(text))' is not a form of drink", kind: .badData)
            }
            form = named
        } else if container.currentIndex != before {
            throw InvalidRecordError(problem: "its fields cannot be read", kind: .badData)
        }
        self.init(name: name, caffeineMg: caffeineMg, form: form)
    }

    init(row: SQLiteStatement) {
        self.init(name: row.text(0), caffeineMg: row.double(1), form: DrinkForm(rawValue: row.text(2)) ?? .beverage)
    }

    var columnValues: [SQLiteValue] { [.text(name), .real(caffeineMg), .text(form.rawValue)] }
}

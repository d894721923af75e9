/// One setting that describes the person, as it syncs: its name, and its value as `config.toml` writes
/// it (`70`, `"23:00"`, `["smoker"]`). A setting a later journal knows and this one does not, or a
/// value this journal cannot read (a condition a later journal added), is kept as it came, the same on
/// every device, and used by none of this journal's numbers (`known`).
public struct SyncedSetting: Hashable, Sendable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The setting `key` at `value`.
    public init(_ key: JournalSettings.Key, _ value: JournalSettings.Value) {
        self.init(name: key.rawValue, value: SettingsFile.text(of: value))
    }

    /// The most a name or a value holds: every setting's fits many times over.
    static let longest = 256

    /// The setting this journal knows it as, with its value; nil for a setting of a later journal.
    public var known: (key: JournalSettings.Key, value: JournalSettings.Value)? {
        guard let key = JournalSettings.Key(rawValue: name), let value = try? SettingsFile.value(value, of: key, quoted: true) else { return nil }
        return (key, value)
    }

    /// A name that reads as a setting's, and a value of short text without controls: refused otherwise,
    /// the same way by every journal, whatever settings it knows.
    public func validate() throws(InvalidRecordError) {
        guard !name.isEmpty, name.utf8.count <= 64, name.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }) else {
            throw InvalidRecordError(problem: "'\(TerminalText.quoted(name))' cannot be a setting's name", kind: .badData)
        }
        guard value.utf8.count <= Self.longest, !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw InvalidRecordError(problem: "the value of \(name) is not one a setting can have", kind: .badData)
        }
    }
}

extension SyncedSetting: StoredPayload {
    /// Listed as "settings" in segments, which segment format 6 brought: a journal from before refuses
    /// a segment holding one by its number.
    public static let kind = RecordKind(segmentKey: "settings", noun: "setting", format: 6)

    static let tableName = "settings"
    static let table = RecordTable<SyncedSetting>(name: tableName, payloadColumns: ["name", "value"])

    public var key: String { name }

    public var segmentFormat: UInt8 { Self.kind.format }

    /// A setting is not something had at a time.
    public var occurredAt: Timestamp? { nil }

    /// `[name, value]`
    public func encodeFields(to container: inout some UnkeyedEncodingContainer) throws {
        try container.encode(name)
        try container.encode(value)
    }

    public init(fieldsFrom container: inout some UnkeyedDecodingContainer) throws {
        self.init(name: try container.decode(String.self), value: try container.decode(String.self))
    }

    init(row: SQLiteStatement) { self.init(name: row.text(0), value: row.text(1)) }

    var columnValues: [SQLiteValue] { [.text(name), .text(value)] }
}

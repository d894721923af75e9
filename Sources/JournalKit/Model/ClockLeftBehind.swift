/// A hybrid clock reading this journal left behind because it was further ahead of real time than the
/// clock may run (`HybridLogicalClock.maximumDrift`): the machine's clock had been wrong. Records
/// written before keep that reading, and win their merges until real time passes it unless edited
/// again; what this device writes since follows the clock.
public struct ClockLeftBehind: Sendable, Equatable {
    /// The reading left behind.
    public let reading: HybridTimestamp
    /// When the clock went back to real time.
    public let at: Timestamp

    public init(reading: HybridTimestamp, at: Timestamp) {
        self.reading = reading
        self.at = at
    }

    static let metaKey = "hlc_left_behind"

    /// What `meta` keeps of it: "READING AT".
    var text: String { "\(reading.rawValue) \(at.milliseconds)" }

    init?(text: String) {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let reading = Int64(parts[0]), let at = Int64(parts[1]) else { return nil }
        self.init(reading: HybridTimestamp(rawValue: reading), at: Timestamp(milliseconds: at))
    }

    func record(in connection: SQLiteConnection) throws {
        try connection.run(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            .text(Self.metaKey), .text(text))
    }

    /// How far ahead of real time the clock had run when it was left behind.
    public var ranAheadBy: Duration { .milliseconds(reading.milliseconds - at.milliseconds) }

    /// For a person: "this machine's clock had run ahead to 2030-01-01 12:00 (3 years ahead); since
    /// 2026-11-28 14:00 the journal stamps its changes by the clock again".
    public var sentence: String {
        "this machine's clock had run ahead to \(LocalTime.display(reading.physicalTime)) (\(Self.span(ranAheadBy)) ahead of real time); "
            + "since \(LocalTime.display(at)) the journal stamps this device's changes by the clock again, and a change made elsewhere "
            + "later wins over one made here while the clock was wrong, unless that one is edited again"
    }

    /// A duration in the largest whole unit a person reads it in: "3 years", "2 days", "7 minutes".
    public static func span(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        let units: [(Int64, String)] = [(365 * 86_400, "year"), (86_400, "day"), (3_600, "hour"), (60, "minute"), (1, "second")]
        for (size, name) in units where seconds >= size {
            let count = seconds / size
            return "\(count) \(name)\(count == 1 ? "" : "s")"
        }
        return "less than a second"
    }
}

extension JournalStore {
    /// The reading the hybrid clock last left behind, if it ever did.
    public func clockLeftBehind() throws -> ClockLeftBehind? {
        try connection.queryText("SELECT value FROM meta WHERE key = ?", .text(ClockLeftBehind.metaKey)).flatMap(ClockLeftBehind.init(text:))
    }
}

/// What the shells complete from a journal file: the file's SQL lives here, with the store's, and
/// the command line asks by name. Read with one read-only query (`UserSQL`), which never makes or
/// changes the file; nothing at all when it cannot be read.
public enum CompletionSource: Sendable {
    /// The names of the person's own drinks.
    case ownDrinkNames
    /// The ids of the latest 100 drinks, as `list` shows them (8 characters).
    case latestDrinkIDs
    /// The names of the hub's devices this journal knows.
    case deviceNames

    private var sql: String {
        switch self {
        case .ownDrinkNames: "SELECT name FROM custom_drinks WHERE deleted = 0"
        case .latestDrinkIDs: "SELECT substr(id, 1, 8) FROM drinks WHERE deleted = 0 ORDER BY consumed_at DESC LIMIT 100"
        case .deviceNames: "SELECT name FROM sync_devices ORDER BY name"
        }
    }

    /// The words in the journal at `path`, or none when it is not there or cannot be read.
    public func words(inJournalAt path: String) -> [String] {
        guard FileSystem.exists(path) else { return [] }
        var found: [String] = []
        try? UserSQL.run(sql, on: path) { event in
            if case .row(let values) = event, case .text(let text)? = values.first {
                found.append(text)
            }
        }
        return found
    }
}

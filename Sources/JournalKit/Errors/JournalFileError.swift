/// A database file this journal cannot use, and never modifies.
public enum JournalFileError: JournalFailure, Equatable {
    case notADatabase(path: String)
    case notAJournal(path: String)
    case newerSchema(path: String, version: Int64, supported: Int64)
    case notWritable(path: String, reason: String)
    case readOnlyDisk(path: String)

    public var kind: FailureKind {
        switch self {
        case .notADatabase, .notAJournal, .newerSchema: return .badData
        case .notWritable: return .failure
        case .readOnlyDisk: return .setup
        }
    }

    public var remedy: Remedy? {
        switch self {
        case .notADatabase, .notAJournal, .readOnlyDisk: return .chooseDatabase
        case .newerSchema, .notWritable: return nil
        }
    }

    public var description: String {
        switch self {
        case .notADatabase(let path):
            return "\(path) is not a journal: it is not a SQLite database. It was left untouched."
        case .notAJournal(let path):
            return "\(path) is another program's SQLite database, not a journal. It was left untouched."
        case .newerSchema(let path, let version, let supported):
            return "\(path) was written by a newer journal (schema version \(version); this one knows up "
                + "to \(supported)). It was left untouched; update journal to use it."
        case .readOnlyDisk(let path):
            return "cannot use \(path): it is on a read-only file system, and the journal writes to its file even "
                + "to read (SQLite's write-ahead log). Mount it read-write."
        case .notWritable(let path, let reason):
            return "cannot use \(path): \(reason)"
        }
    }
}

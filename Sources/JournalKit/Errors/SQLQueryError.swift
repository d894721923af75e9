/// SQL given to `journal sql` that SQLite cannot run: a syntax error, an unknown table or column.
public struct SQLQueryError: JournalFailure, Equatable {
    public let message: String

    public var kind: FailureKind { .usage }
    public var remedy: Remedy? { .listTables }

    public var description: String {
        "the SQL cannot run: \(message)."
    }
}

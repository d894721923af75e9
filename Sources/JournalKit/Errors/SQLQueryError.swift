/// SQL given to `journal sql` that SQLite cannot run: a syntax error, an unknown table or column.
public struct SQLQueryError: JournalFailure, Equatable {
    public let message: String

    public var kind: FailureKind { .usage }

    public var description: String {
        "the SQL cannot run: \(message). `journal sql \"select name from sqlite_schema\"` lists the tables and views."
    }
}

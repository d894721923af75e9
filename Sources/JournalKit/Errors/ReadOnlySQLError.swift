/// SQL given to `journal sql` that would change the journal.
public struct ReadOnlySQLError: JournalFailure, Equatable {
    public let statement: String

    public var kind: FailureKind { .usage }

    public var description: String {
        "journal sql only reads, and this would write: \(statement)\n"
            + "Nothing was changed. Use journal add, edit, rm or import to change the journal."
    }
}

/// SQL given to `journal sql` that would change the journal.
public struct ReadOnlySQLError: JournalFailure, Equatable {
    public let statement: String

    public var kind: FailureKind { .usage }
    public var remedy: Remedy? { .useWritingCommands }

    public var description: String {
        "this SQL would change the journal, and only reading is allowed here: \(statement)\nNothing was changed."
    }
}

import ArgumentParser
import JournalKit

/// Options every command that opens the journal takes.
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: ArgumentHelp("The journal database (default: $JOURNAL_DB, else $XDG_DATA_HOME/journal/journal.db).", valueName: "path"))
    public var db: String?

    public init() {}

    /// The database file this command uses.
    public func databasePath() throws -> String {
        try JournalPaths.database(explicit: db)
    }

    /// "Now": the machine's clock, or the instant in `JOURNAL_NOW`.
    public func clock() throws -> any JournalClock { try JournalAccess.clock() }

    /// The journal, on the store thread the command runs on.
    public func openStore(clock: (any JournalClock)? = nil) async throws -> JournalStore {
        try await JournalStore(path: databasePath(), clock: clock ?? self.clock(), executor: Executors.main)
    }
}

/// `--json`, for commands that print data.
public struct OutputOptions: ParsableArguments, Sendable {
    @Flag(name: .long, help: "Print JSON instead of text.")
    public var json = false

    public init() {}
}

/// An environment variable the journal reads whose value it cannot use.
struct EnvironmentValueError: JournalFailure {
    let name: String
    let problem: String

    var kind: FailureKind { .badData }
    var description: String { "\(name) in the environment: \(problem)" }
}

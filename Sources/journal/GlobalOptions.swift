import ArgumentParser
import JournalKit

/// Options every command that opens the journal takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The journal database (default: $JOURNAL_DB, else $XDG_DATA_HOME/journal/journal.db).", valueName: "path"))
    var db: String?

    /// The database file this command uses.
    func databasePath() throws -> String {
        try JournalPaths.database(explicit: db)
    }

    /// "Now": the machine's clock, or the instant in `JOURNAL_NOW` (ISO 8601), which scripts and
    /// tests use to ask "what if it were then".
    func clock() throws -> any JournalClock {
        guard let text = JournalPaths.environment("JOURNAL_NOW"), !text.isEmpty else { return SystemClock() }
        do {
            return FixedClock(try TimeExpression(now: SystemClock().now()).parse(text, allowFuture: true))
        } catch {
            throw EnvironmentValueError(name: "JOURNAL_NOW", problem: error.description)
        }
    }

    /// The journal, on the store thread the command runs on.
    func openStore(clock: (any JournalClock)? = nil) async throws -> JournalStore {
        try await JournalStore(path: databasePath(), clock: clock ?? self.clock(), executor: Journal.storeExecutor)
    }
}

/// `--json`, for commands that print data.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false
}

/// An environment variable the journal reads whose value it cannot use.
struct EnvironmentValueError: JournalFailure {
    let name: String
    let problem: String

    var kind: FailureKind { .badData }
    var description: String { "\(name) in the environment: \(problem)" }
}

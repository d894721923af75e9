import JournalKit

/// How a command gets at the journal and its "now", the same whichever parser read its command line.
public enum JournalAccess {
    /// "Now": the machine's clock, or the instant in `JOURNAL_NOW` (ISO 8601), which scripts and
    /// tests use to ask "what if it were then".
    public static func clock() throws -> any JournalClock {
        guard let text = JournalPaths.environment("JOURNAL_NOW"), !text.isEmpty else { return SystemClock() }
        do {
            return FixedClock(try TimeExpression(now: SystemClock().now()).parse(text, allowFuture: true))
        } catch {
            throw EnvironmentValueError(name: "JOURNAL_NOW", problem: error.description)
        }
    }

    /// Opens the journal (`db`, else `JOURNAL_DB`, else the default file) on the calling thread and
    /// runs `body` with it there, synchronously: no thread is started and no work handed between
    /// threads, which is most of what a command that runs in milliseconds would otherwise spend.
    public static func withStore<T: Sendable>(
        db: String?, clock: any JournalClock, _ body: @Sendable (isolated JournalStore) throws -> T
    ) throws -> T {
        let store = try JournalStore(
            openingHere: JournalPaths.database(explicit: db), clock: clock, executor: .callingThread())
        return try store.assumeIsolated { store in try body(store) }
    }
}

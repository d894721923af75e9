import PostgresNIO
import Synchronization

extension PostgresConnection {
    /// Every row `query` answers, each made into a `Row` by `decode` as it arrives.
    ///
    /// Not PostgresNIO's row sequence (`for try await`): that stops reading until the consuming task
    /// asks for more, and a server that closes the connection meanwhile with rows still unread (a
    /// restart mid-answer) fails a precondition in PostgresNIO 1.33.2 (`RowStreamStateMachine`'s
    /// `channelReadComplete` in `.waitingForDemand`), which took a daemon down with SIGILL. Rows taken
    /// on the event loop ask for the next at once, so none waits for a task, and such a server fails
    /// the call like any lost connection. Every answer the hub reads is kept whole anyway.
    func rows<Row: Sendable>(_ query: PostgresQuery, _ decode: @escaping @Sendable (PostgresRow) throws -> Row) async throws -> [Row] {
        let rows = RowsRead<Row>()
        _ = try await self.query(query, logger: PostgresConnector.quiet) { row in rows.append(try decode(row)) }.get()
        return rows.taken()
    }
}

/// The rows of an answer read so far, appended on the event loop and taken once it has ended.
private final class RowsRead<Row: Sendable>: Sendable {
    private let rows = Mutex<[Row]>([])

    func append(_ row: Row) { rows.withLock { $0.append(row) } }

    func taken() -> [Row] { rows.withLock { $0 } }
}

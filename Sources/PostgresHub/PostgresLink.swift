import JournalSync
import PostgresNIO

/// One open connection to a hub's server, and its channel: every call on it is bounded in time, and
/// its failures are said as the hub's.
struct PostgresLink: Sendable {
    let connection: PostgresConnection
    let channel: any Channel
    let location: PostgresLocation

    /// Longest a call may take: generous for a first sync's large reads over a slow line, short enough
    /// that a server that stopped answering fails the sync instead of stalling it.
    static let callSeconds = 120

    var isClosed: Bool { connection.isClosed }

    /// Runs `body` on the connection, failing (and closing the connection) when it takes longer than
    /// `callSeconds`. PostgreSQL's errors become the hub's.
    func run<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        // A query on a closed connection waits forever in PostgresNIO: never send one.
        guard !connection.isClosed else {
            throw SyncError.hubUnavailable(hub: location.uri, reason: "the connection to \(location.server) was lost")
        }
        let deadline = Deadline(on: channel, seconds: Self.callSeconds)
        defer { deadline.cancel() }
        do {
            return try await body(connection)
        } catch {
            if deadline.expired {
                throw SyncError.hubUnavailable(hub: location.uri, reason: "the server did not answer within \(Self.callSeconds) s")
            }
            throw ServerFailure.calling(error, location: location)
        }
    }

    func close() async {
        try? await connection.close()
    }
}

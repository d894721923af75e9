import EventLoopExecution
import JournalSync
import PostgresNIO

/// One open connection to a hub's server, and its channel: every call on it is bounded in time, and
/// its failures are said as the hub's.
struct PostgresLink: Sendable {
    let connection: PostgresConnection
    let channel: any Channel
    /// When the server was last heard from.
    let heard: LastHeard
    let location: PostgresLocation
    /// Longest a call may wait without a word from the server (`CallLimit`).
    let callSeconds: Int
    /// The channel's event loop, where each call runs.
    private let executor: EventLoopExecutor
    /// The calls under way, each failed when the channel closes.
    private let pending: PendingCalls

    init(connection: PostgresConnection, channel: any Channel, heard: LastHeard, location: PostgresLocation, callSeconds: Int) {
        self.connection = connection
        self.channel = channel
        self.heard = heard
        self.location = location
        self.callSeconds = callSeconds
        executor = EventLoopExecutor(channel.eventLoop)
        pending = PendingCalls(watching: channel)
    }

    var isClosed: Bool { connection.isClosed }

    /// The calls made on the connection so far (`PendingCalls.activity`).
    var activity: CallActivity { pending.activity }

    /// Runs `body` on the connection, failing (and closing the connection) when the server says nothing
    /// for `seconds` (`callSeconds` unless given) while it runs, and failing at once when the connection
    /// ends first.
    /// PostgreSQL's errors become the hub's.
    ///
    /// PostgresNIO drops a query written to a channel that is closing (the server stopping as the call
    /// begins) and waits for its answer forever: a daemon's sync hung so, for good, its requests
    /// unanswered. So `body` runs as a task of its own, and the call ends with its outcome or, when
    /// the channel closed without one, a moment after (`Channel.whenClosed`); a body the driver never
    /// answers is left waiting, holding nothing.
    func run<T: Sendable>(within seconds: Int? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        // Made when needed: the hub's URI is built afresh each time, 3% of a ring's instructions made per call.
        let location = location
        let lost: @Sendable () -> SyncError = { .hubUnavailable(hub: location.uri, reason: "the connection to \(location.server) was lost") }
        guard !connection.isClosed else { throw lost() }
        let seconds = seconds ?? callSeconds
        let deadline = Deadline(on: channel, seconds: seconds, heard: heard)
        defer { deadline.cancel() }
        let outcome = FirstOutcome<T>()
        let connection = connection
        let call = Task(executorPreference: executor) {
            do { outcome.finish(.success(try await body(connection))) } catch { outcome.finish(.failure(error)) }
        }
        let watched = pending.watch { outcome.finish(.failure(lost())) }
        defer { pending.finished(watched) }
        do {
            return try await withTaskCancellationHandler {
                try await outcome.wait()
            } onCancel: {
                call.cancel()
                outcome.finish(.failure(CancellationError()))
            }
        } catch {
            if deadline.expired {
                throw SyncError.hubUnavailable(hub: location.uri, reason: "the server did not answer within \(seconds) s")
            }
            throw ServerFailure.calling(error, location: location)
        }
    }

    func close() async {
        try? await connection.close()
    }
}

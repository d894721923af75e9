import EventLoopExecution
import JournalKit
import JournalSync
import Logging
import NIOSSL
import PostgresNIO

/// Opens connections to a hub's server as libpq would for the same connection string: its TLS modes
/// (`PostgresTLS`), its password files and a prompt (`ServerPassword`), its socket folder
/// (`ServerSocket`); and says every failure as a `PostgresHubError` or as the hub being unavailable
/// (`ServerFailure`), never with the password. Each call on its connections is bounded by its
/// `CallLimit`.
final class PostgresConnector: Sendable {
    let location: PostgresLocation
    private let password: ServerPassword
    /// Longest a call on a connection of this connector may take.
    let callSeconds: Int

    init(location: PostgresLocation, ask: (@Sendable (String) -> String?)? = nil, callLimit: CallLimit = .syncing) {
        self.location = location
        password = ServerPassword(location: location, ask: ask)
        callSeconds = callLimit.seconds(at: location)
    }

    /// PostgresNIO logs at debug and trace only; the daemon's own lines say what matters.
    static let quiet = Logger(label: "journal.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A connection, TLS and password settled, on `loop` when given, else on the calling thread's
    /// loop when it runs on one (its replies then resume the caller where it is), else on one of NIO's
    /// shared loops; the caller closes it.
    func connect(on chosen: (any EventLoop)? = nil) async throws -> PostgresLink {
        let loop = chosen ?? EventLoopExecutor.currentOrShared()
        let tls = try PostgresTLS.context(for: location)
        let known = try password.known()
        do {
            return try await openHeedingCancellation(tls: tls, password: known, on: loop)
        } catch let error as PSQLError where error.code == .authMechanismRequiresPassword && known == nil {
            let typed = try password.prompt()
            let link = try await openHeedingCancellation(tls: tls, password: typed, on: loop)
            do { try password.keep(typed) } catch {
                await link.close()
                throw error
            }
            return link
        }
    }

    /// `open`, which a cancelled caller stops waiting for at once: neither NIO's connect nor PostgresNIO's
    /// start-up heeds cancellation, and a daemon shutting down (its doorbell reconnecting to a server
    /// that does not answer) must not wait out the connect timeout. A connection that opens after its
    /// caller left is closed.
    private func openHeedingCancellation(
        tls: NIOSSLContext?, password: ServerPassword.Found?, on loop: any EventLoop
    ) async throws -> PostgresLink {
        try Task.checkCancellation()
        let outcome = FirstOutcome<PostgresLink>()
        let opening = Task(executorPreference: EventLoopExecutor(loop)) {
            do {
                let link = try await self.open(tls: tls, password: password, on: loop)
                if !outcome.finish(.success(link)) { await link.close() }
            } catch {
                outcome.finish(.failure(error))
            }
        }
        return try await withTaskCancellationHandler {
            try await outcome.wait()
        } onCancel: {
            opening.cancel()
            outcome.finish(.failure(CancellationError()))
        }
    }

    private func open(tls: NIOSSLContext?, password: ServerPassword.Found?, on loop: any EventLoop) async throws -> PostgresLink {
        let channel: any Channel
        do { channel = try await ServerSocket.open(location, on: loop) } catch { throw ServerFailure.opening(error, location: location) }
        let heard = LastHeard()
        do { try await channel.pipeline.addHandler(heard, position: .first).get() } catch {
            try? await channel.close()
            throw ServerFailure.opening(error, location: location)
        }
        // The whole opening (TLS, authentication) is bounded too: a server that takes the connection
        // and says nothing is not waited for forever.
        let deadline = Deadline(on: channel, seconds: location.connectTimeout)
        if let tls { try await secure(channel, with: tls, deadline: deadline) }
        // TLS, when there is, is on already: PostgresNIO is given an encrypted channel.
        var configuration = PostgresConnection.Configuration(
            establishedChannel: channel, tls: .disable, username: location.user, password: password?.text, database: location.database)
        configuration.options.additionalStartupParameters = [("application_name", location.applicationName)]
        // PostgresNIO bounds the start-up too, by its own ten seconds unless told: a limit set in the
        // connection string is the one a person is told of, so it is the one kept.
        configuration.options.connectTimeout = .seconds(Int64(location.connectTimeout))
        do {
            let opening: EventLoopFuture<PostgresConnection> = PostgresConnection.connect(on: channel.eventLoop, configuration: configuration, id: 1, logger: Self.quiet)
            // Cancelled on the event loop the moment the opening ends, not when this task next runs:
            // on a busy machine a task may wait long for a thread, and that wait is not the server's.
            opening.whenComplete { _ in deadline.cancel() }
            let connection: PostgresConnection
            do { connection = try await channel.valueBeforeClosing(opening) } catch is ChannelEnded {
                deadline.cancel()
                throw deadline.expired
                    ? SyncError.hubUnavailable(hub: location.uri, reason: "the server did not answer within \(location.connectTimeout) s")
                    : SyncError.hubUnavailable(hub: location.uri, reason: "the connection to \(location.server) was lost")
            }
            // Opened as the time ran out: the channel is closing under it.
            guard !deadline.expired else {
                try? await connection.close()
                throw SyncError.hubUnavailable(hub: location.uri, reason: "the server did not answer within \(location.connectTimeout) s")
            }
            let link = PostgresLink(connection: connection, channel: channel, heard: heard, location: location, callSeconds: callSeconds)
            do {
                // Still the opening: bounded as the rest of it is.
                try await link.run(within: location.connectTimeout) { connection in
                    // The anchored read runs in a millisecond, and on a hub of a million rows the
                    // planner's estimate for it stays under jit_above_cost (`PostgresHub.listing`); on
                    // a hub a hundred times larger it would not, and compiling the plan costs 200-350 ms
                    // of every sync. A session setting, not a startup parameter: poolers refuse startup
                    // parameters they do not know. A server older than JIT (before PostgreSQL 11) has
                    // no such setting to change.
                    try await connection.query(
                        "SELECT set_config('jit', 'off', false) FROM pg_settings WHERE name = 'jit'", logger: Self.quiet)
                }
            } catch {
                await link.close()
                throw error
            }
            return link
        } catch let error as PSQLError {
            deadline.cancel()
            channel.close(promise: nil)
            if deadline.expired {
                throw SyncError.hubUnavailable(hub: location.uri, reason: "the server did not answer within \(location.connectTimeout) s")
            }
            if error.code == .authMechanismRequiresPassword { throw error }
            throw ServerFailure.connecting(error, location: location, password: password?.source)
        }
    }

    /// Begins TLS on `channel`; a server that declines it is refused unless the mode settles for
    /// plain text (`prefer` and `allow`, on this machine only).
    private func secure(_ channel: any Channel, with tls: NIOSSLContext, deadline: Deadline) async throws {
        let mode = PostgresTLS.effectiveMode(location)
        do {
            let secured = try await TLSRequest.begin(
                on: channel, context: tls, serverName: PostgresTLS.serverName(location), verifyHost: mode == .verifyFull ? location.host : nil)
            if !secured, mode != .prefer, mode != .allow {
                throw PostgresHubError.tlsNotOffered(server: location.server, why: PostgresTLS.whyRequired(location))
            }
        } catch {
            deadline.cancel()
            channel.close(promise: nil)
            if deadline.expired {
                throw SyncError.hubUnavailable(hub: location.uri, reason: "the server did not answer within \(location.connectTimeout) s")
            }
            throw ServerFailure.securing(error, location: location)
        }
    }
}

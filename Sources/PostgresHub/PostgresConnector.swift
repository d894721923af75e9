import JournalKit
import JournalSync
import Logging
import PostgresNIO

/// Opens connections to a hub's server as libpq would for the same connection string: its TLS modes
/// (`PostgresTLS`), its password files and a prompt (`ServerPassword`), its socket folder
/// (`ServerSocket`); and says every failure as a `PostgresHubError` or as the hub being unavailable
/// (`ServerFailure`), never with the password.
final class PostgresConnector: Sendable {
    let location: PostgresLocation
    private let password: ServerPassword

    init(location: PostgresLocation, ask: (@Sendable (String) -> String?)? = nil) {
        self.location = location
        password = ServerPassword(location: location, ask: ask)
    }

    /// PostgresNIO logs at debug and trace only; the daemon's own lines say what matters.
    static let quiet = Logger(label: "journal.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A connection, TLS and password settled; the caller closes it.
    func connect() async throws -> PostgresLink {
        let tls = try PostgresTLS.configuration(for: location)
        let known = try password.known()
        do {
            return try await open(tls: tls, password: known)
        } catch let error as PSQLError where error.code == .authMechanismRequiresPassword && known == nil {
            let typed = try password.prompt()
            let link = try await open(tls: tls, password: typed)
            do { try password.keep(typed) } catch {
                await link.close()
                throw error
            }
            return link
        }
    }

    private func open(tls: PostgresConnection.Configuration.TLS, password: ServerPassword.Found?) async throws -> PostgresLink {
        let channel: any Channel
        do { channel = try await ServerSocket.open(location) } catch { throw ServerFailure.opening(error, location: location) }
        var configuration = PostgresConnection.Configuration(
            establishedChannel: channel, tls: tls, username: location.user, password: password?.text, database: location.database)
        configuration.options.tlsServerName = location.isSocket || location.host.contains(":") || location.isIPv4 ? nil : location.host
        configuration.options.additionalStartupParameters = [("application_name", location.applicationName)]
        // The whole opening (TLS, authentication) is bounded too: a server that takes the connection
        // and says nothing is not waited for forever.
        let deadline = Deadline(on: channel, seconds: location.connectTimeout)
        do {
            let opening: EventLoopFuture<PostgresConnection> = PostgresConnection.connect(on: channel.eventLoop, configuration: configuration, id: 1, logger: Self.quiet)
            // Cancelled on the event loop the moment the opening ends, not when this task next runs:
            // on a busy machine a task may wait long for a thread, and that wait is not the server's.
            opening.whenComplete { _ in deadline.cancel() }
            let connection = try await opening.get()
            // Opened as the time ran out: the channel is closing under it.
            guard !deadline.expired else {
                try? await connection.close()
                throw SyncError.hubUnavailable(hub: location.uri, reason: "the server did not answer within \(location.connectTimeout) s")
            }
            return PostgresLink(connection: connection, channel: channel, location: location)
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
}

import JournalKit
import JournalSync
import Logging
import PostgresNIO
import Synchronization

/// Opens connections to a hub's server as libpq would for the same connection string: its TLS modes,
/// its password files, its socket folder; and says every failure as a `PostgresHubError` or as the
/// hub being unavailable, never with the password.
final class PostgresConnector: Sendable {
    let location: PostgresLocation
    /// Asks the person for the password (`sync init` on a terminal); nil where no one can answer.
    let ask: (@Sendable (String) -> String?)?
    /// A password asked for and accepted, kept for later connections of this process.
    private let asked = Mutex<String?>(nil)

    init(location: PostgresLocation, ask: (@Sendable (String) -> String?)? = nil) {
        self.location = location
        self.ask = ask
    }

    /// PostgresNIO logs at debug and trace only; the daemon's own lines say what matters.
    static let quiet = Logger(label: "journal.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A connection, TLS and password settled; the caller closes it.
    func connect() async throws -> PostgresLink {
        let tls = try PostgresTLS.configuration(for: location)
        var password: (text: String, source: String)?
        if let typed = asked.withLock({ $0 }) {
            password = (typed, "the prompt")
        } else {
            for file in PasswordFile.candidates(for: location) {
                if let found = try file.password(for: location) {
                    password = (found, file.path)
                    break
                }
            }
        }
        do {
            return try await open(tls: tls, password: password)
        } catch let error as PSQLError where error.code == .authMechanismRequiresPassword && password == nil {
            let looked = PasswordFile.candidates(for: location).map(\.path)
            guard let ask, let typed = ask("Password for \(location.user) on \(location.server): "), !typed.isEmpty else {
                throw PostgresHubError.passwordRequired(user: location.user, server: location.server, looked: looked)
            }
            let link = try await open(tls: tls, password: (typed, "the prompt"))
            asked.withLock { $0 = typed }
            if let own = PasswordFile.journalsOwn() {
                do { try own.save(typed, for: location) } catch {
                    await link.close()
                    throw error
                }
            }
            return link
        }
    }

    private func open(tls: PostgresConnection.Configuration.TLS, password: (text: String, source: String)?) async throws
        -> PostgresLink
    {
        // Our own socket: keep-alives find a server that vanished without a word (PostgresNIO sets
        // none), and the whole opening (TCP, TLS, authentication) is bounded by the timeout, so a
        // server that takes the connection and says nothing is not waited for forever.
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(Int64(location.connectTimeout)))
            .channelOption(.socketOption(.so_keepalive), value: location.isSocket ? 0 : 1)
        let channel: any Channel
        do {
            channel = location.isSocket
                ? try await bootstrap.connect(unixDomainSocketPath: location.socketPath).get()
                : try await bootstrap.connect(host: location.host, port: location.port).get()
        } catch {
            throw SyncError.hubUnavailable(hub: location.uri, reason: Self.plainReason(String(describing: error)))
        }
        if !location.isSocket { Self.setKeepAlive(channel) }
        var configuration = PostgresConnection.Configuration(
            establishedChannel: channel, tls: tls, username: location.user, password: password?.text, database: location.database)
        configuration.options.tlsServerName = location.isSocket || location.host.contains(":") || location.isIPv4 ? nil : location.host
        configuration.options.additionalStartupParameters = [("application_name", location.applicationName)]
        let deadline = Deadline(on: channel, seconds: location.connectTimeout)
        do {
            let connection = try await PostgresConnection.connect(
                on: channel.eventLoop, configuration: configuration, id: 1, logger: Self.quiet)
            deadline.cancel()
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
            throw describe(error, password: password?.source)
        }
    }

    /// Probes after a minute of silence, every 10 s, 6 times: a dead server is noticed in two minutes.
    private static func setKeepAlive(_ channel: any Channel) {
        for (option, value) in [(TCP_KEEPIDLE, 60), (TCP_KEEPINTVL, 10), (TCP_KEEPCNT, 6)] {
            channel.setOption(.tcpOption(NIOBSDSocket.Option(rawValue: option)), value: SocketOptionValue(value)).whenComplete { _ in }
        }
    }

    /// A connection failure as the person should read it.
    func describe(_ error: PSQLError, password source: String?) -> any Error {
        let server = location.server
        let sqlState = error.serverInfo?[.sqlState] ?? ""
        let message = Self.serverMessage(error)
        switch (error.code, sqlState) {
        case (.server, "28P01"):
            return PostgresHubError.wrongPassword(user: location.user, server: server, source: source ?? "no password")
        case (.server, "3D000"): return PostgresHubError.noSuchDatabase(database: location.database, server: server)
        case (.server, "28000") where message.contains("no encryption"):
            return PostgresHubError.tlsRequiredByServer(server: server, reason: message)
        case (.sslUnsupported, _): return PostgresHubError.tlsNotOffered(server: server)
        case (.server, _) where sqlState.hasPrefix("28"):
            return PostgresHubError.refusedByServer(server: server, message: message)
        case (.connectionError, _):
            let reason = error.underlying.map { String(describing: $0) } ?? "the connection failed"
            if reason.contains("CERTIFICATE_VERIFY_FAILED") {
                return PostgresHubError.certificateRejected(server: server, reason: "it is not signed by a certificate this machine trusts")
            }
            if reason.contains("failedToValidateHostname") || reason.contains("Couldn't find") {
                return PostgresHubError.certificateRejected(server: server, reason: "it is not for \(location.host)")
            }
            return SyncError.hubUnavailable(hub: location.uri, reason: Self.plainReason(reason))
        default:
            return Self.failure(error, location: location)
        }
    }

    /// A failure after connecting: the server went away, or refused a statement.
    static func failure(_ error: any Error, location: PostgresLocation) -> any Error {
        if let error = error as? PostgresTransactionError,
            let inner = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError
        {
            return failure(inner, location: location)
        }
        guard let error = error as? PSQLError else { return error }
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            // The server shutting down or restarting (57P01..57P03), or out of connections (53300).
            if state.hasPrefix("57P") || state == "53300" {
                return SyncError.hubUnavailable(hub: location.uri, reason: serverMessage(error))
            }
            return PostgresHubError.refusedByServer(server: location.server, message: serverMessage(error))
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown:
            return SyncError.hubUnavailable(hub: location.uri, reason: "the connection to \(location.server) was lost")
        default:
            return SyncError.hubUnavailable(hub: location.uri, reason: "\(error.code)")
        }
    }

    /// What the server said, with its SQLSTATE, cut short: a hostile server's text is shown escaped
    /// and bounded.
    static func serverMessage(_ error: PSQLError) -> String {
        let info = error.serverInfo
        let text = (info?[.message] ?? "\(error.code)") + (info?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
        return String(text.prefix(400))
    }

    /// NIO's error descriptions, shortened to their point: "Connection refused", "Name or service not known".
    static func plainReason(_ reason: String) -> String {
        for known in ["Connection refused", "Name or service not known", "No such file or directory", "Network is unreachable",
            "No route to host", "connectTimeout", "Connection reset", "Temporary failure in name resolution", "Permission denied"]
        where reason.contains(known) {
            return known == "connectTimeout" ? "the server did not answer in time" : known.lowercased()
        }
        return String(reason.prefix(300))
    }
}

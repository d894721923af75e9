import JournalKit
import JournalSync
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import SwiftASN1

import Glibc

/// What a failure talking to a hub's server means for the person: told by the error's type and
/// code (`PSQLError.code` and the server's SQLSTATE, `IOError.errnoCode`, NIO's and NIOSSL's error
/// types), never by the words of a dependency's message, which a new version may change. A server's
/// own text is only quoted, bounded, never read for meaning.
enum ServerFailure {
    /// A socket that could not be opened: the hub cannot be reached (DNS, refused, unreachable, no
    /// answer in time).
    static func opening(_ error: any Error, location: PostgresLocation) -> any Error {
        SyncError.hubUnavailable(hub: location.uri, reason: reason(error, location: location))
    }

    /// Why a connection could not be opened, in a few words.
    static func reason(_ error: any Error, location: PostgresLocation) -> String {
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return reason(first.error, location: location) }
            return "the host name \(location.host) cannot be resolved"
        case let error as IOError:
            return String(cString: strerror(error.errnoCode)).lowercased()
        case ChannelError.connectTimeout:
            return "the server did not answer within \(location.connectTimeout) s"
        case let error as SocketAddressError:
            if case .unknown = error { return "the host name \(location.host) cannot be resolved" }
            return "the address cannot be used"
        default:
            return "the connection failed (\(type(of: error)))"
        }
    }

    /// A connection the server (or TLS) refused, or that failed while it was being set up.
    static func connecting(_ error: PSQLError, location: PostgresLocation, password source: String?) -> any Error {
        let server = location.server
        let state = SQLState(error)
        switch error.code {
        case .server where state == .invalidPassword:
            return PostgresHubError.wrongPassword(user: location.user, server: server, source: source ?? "no password")
        case .server where state == .invalidCatalogName:
            return PostgresHubError.noSuchDatabase(database: location.database, server: server)
        case .server where state == .invalidAuthorization && !location.isSocket && PostgresTLS.effectiveMode(location) == .disable:
            // Refused without TLS: pg_hba.conf accepts this role only over TLS (hostssl lines).
            return PostgresHubError.tlsRequiredByServer(server: server, reason: serverMessage(error), setting: location.sslModeSetting)
        case .server where state?.isAuthorizationRefused == true:
            return PostgresHubError.refusedByServer(server: server, message: serverMessage(error))
        case .connectionError:
            return connectionFailure(error.underlying, location: location)
        default:
            return calling(error, location: location)
        }
    }

    /// TLS that could not begin (`TLSRequest`): the certificate refused, or the connection lost.
    static func securing(_ error: any Error, location: PostgresLocation) -> any Error {
        switch error {
        case let error as PostgresHubError:
            return error
        case let error as TLSRequestError:
            switch error {
            case .notForHost(let names):
                return PostgresHubError.certificateNotForHost(server: location.server, host: location.host, names: names.description)
            case .noCertificate:
                return PostgresHubError.certificateRejected(server: location.server, reason: "the server sent none")
            case .closed:
                return SyncError.hubUnavailable(hub: location.uri, reason: "the server closed the connection when asked for TLS")
            case .unexpectedAnswer, .unencryptedBytes:
                return SyncError.hubUnavailable(hub: location.uri, reason: "the answer to the request for TLS was not a PostgreSQL server's")
            }
        case let error as ASN1Error:
            return PostgresHubError.certificateRejected(server: location.server, reason: "it cannot be read (\(error.code))")
        default:
            return connectionFailure(error, location: location)
        }
    }

    /// What lies under a connection error: TLS refusing the certificate, or the socket.
    private static func connectionFailure(_ underlying: (any Error)?, location: PostgresLocation) -> any Error {
        switch underlying {
        case let error as NIOSSLError:
            guard case .handshakeFailed = error else { break }
            switch PostgresTLS.effectiveMode(location) {
            case .verifyCA, .verifyFull:
                return PostgresHubError.certificateRejected(
                    server: location.server, reason: "the TLS handshake failed: it is not signed by a certificate this machine trusts")
            default:
                return SyncError.hubUnavailable(hub: location.uri, reason: "the TLS handshake with the server failed")
            }
        case let error?:
            return SyncError.hubUnavailable(hub: location.uri, reason: reason(error, location: location))
        case nil:
            break
        }
        return SyncError.hubUnavailable(hub: location.uri, reason: "the connection failed")
    }

    /// A failure after connecting: the server went away, or refused a statement.
    static func calling(_ error: any Error, location: PostgresLocation) -> any Error {
        if let error = error as? PostgresTransactionError,
            let inner = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError
        {
            return calling(inner, location: location)
        }
        guard let error = error as? PSQLError else { return error }
        switch error.code {
        case .server:
            // The server shutting down or restarting, or out of connections: a later sync may succeed.
            if let state = SQLState(error), state.isServerGoingAway || state == .tooManyConnections {
                return SyncError.hubUnavailable(hub: location.uri, reason: serverMessage(error), code: state.transportCode)
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
}

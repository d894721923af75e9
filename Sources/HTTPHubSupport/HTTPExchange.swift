import AsyncHTTPClient
import JournalKit
import JournalSync
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

import Glibc

/// One request to a hub's server and its whole answer, as every kind reached over HTTP sends it:
/// HTTP/1.1 or 2 through AsyncHTTPClient, TLS verified against the system's authorities or the URL's
/// `sslrootcert`, redirects refused (one could carry a login or a signature elsewhere), every call
/// bounded in time, a server that asked to be left alone (429, 503 with `Retry-After`) asked nothing
/// until then. What the answer means is the hub's to say.
public struct HTTPExchange: Sendable {
    public let server: HTTPServer
    /// The hub as messages name it.
    public let hub: String
    public let patience: HubAccess.Patience

    public init(server: HTTPServer, hub: String, patience: HubAccess.Patience) {
        self.server = server
        self.hub = hub
        self.patience = patience
    }

    /// The most requests of this process in flight to one server (`RequestGate`): as many as the
    /// client keeps connections to it, so that none waits in the client's queue, which gives up.
    static let connectionsPerServer = 16

    /// One client for the process, never shut down: hubs are values made and dropped freely, and
    /// connections to a server are kept between a daemon's syncs.
    static let http = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10), read: .seconds(60)),
            // Shorter than the keep-alive of the servers (Apache's KeepAliveTimeout is 5 s): a
            // connection the server closed while idle is not picked for the next request. A process
            // with many hubs on one server at once (the tests' shared servers, dozens of syncs in
            // flight) would otherwise queue for AsyncHTTPClient's 8 connections per host, and a request
            // that waited past the connect timeout failed as the hub out of reach ("getConnectionFromPoolTimeout",
            // 20 tests of a whole run here); a daemon sends one request at a time and is not affected.
            // More would not do: 64 left the tests' Apache taking TLS handshakes past the connect timeout.
            connectionPool: .init(idleTimeout: .seconds(4), concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerServer),
            decompression: .disabled))

    /// The code of a connection the server closed before it answered.
    public static let connectionClosed = TransportCode.errno(ECONNRESET)

    /// Until when each server (`host:port`) asked to be left alone: no request of this process goes
    /// to it before, the looks of a polled hub and the syncs alike.
    private static let leftAlone = Mutex<[String: ContinuousClock.Instant]>([:])

    /// How often a request that met a kept connection the server had closed is sent again, each time on
    /// another: on a busy event loop the pool's idle timer can fire late, and several connections the
    /// server closed may be picked in turn (seen in whole test runs, with dozens of syncs in flight).
    static let closedConnectionRetries = 3

    /// How long one request may take. A throttled login (Nextcloud's brute-force protection delays its
    /// answer up to 30 s) is well within it.
    public var deadline: TimeAmount {
        switch patience {
        case .syncing: .seconds(120)
        case .glance: .seconds(5)
        }
    }

    /// Sends `request` and returns the answer, whatever its status. Fails only when no whole answer
    /// came within `deadline` (said as the hub unreachable), the certificate was refused, the server
    /// asked to be left alone a while longer, or the body is past `limit`. `what` names the request
    /// in messages ("PUT cards/…").
    public func send(_ request: HTTPClientRequest, what: String, limit: Int) async throws -> HTTPAnswer {
        try checkLeftAlone()
        var request = request
        if server.secure { request.tlsConfiguration = try tls() }
        let gate = RequestGate.of(server.name, limit: Self.connectionsPerServer)
        try await gate.enter()
        defer { gate.leave() }
        let answer = try await exchangeAcrossClosedConnections(request, what: what, limit: limit)
        if let wait = answer.retryAfter, wait > .zero {
            let until = ContinuousClock.now.advanced(by: wait)
            Self.leftAlone.withLock { $0[server.name] = until }
        }
        return answer
    }

    /// Refuses, without a request, to reach a server that asked to be left alone a while longer.
    private func checkLeftAlone() throws {
        let until = Self.leftAlone.withLock { $0[server.name] }
        guard let until, case let remaining = ContinuousClock.now.duration(to: until), remaining > .zero else { return }
        throw SyncError.hub(HubFailure(
            .unreachable, hub: hub, reason: "the server asked to be left alone for \(remaining.spoken) more", code: .httpStatus(429),
            retryAfter: remaining))
    }

    /// One request and its whole answer, sent again on another connection when the one picked was a
    /// kept connection the server had closed.
    private func exchangeAcrossClosedConnections(_ request: HTTPClientRequest, what: String, limit: Int) async throws -> HTTPAnswer {
        var retries = 0
        while true {
            do { return try await exchange(request, what: what, limit: limit) } catch let error as SyncError where error.hubCondition == .unreachable {
                guard case .hub(let failure) = error, failure.code == Self.connectionClosed, retries < Self.closedConnectionRetries else { throw error }
                retries += 1
            }
        }
    }

    /// One request and its whole answer, within `deadline`: AsyncHTTPClient's deadline ends when the
    /// headers come, and a server that then sends a byte a minute would hold the body's reading for ever.
    private func exchange(_ request: HTTPClientRequest, what: String, limit: Int) async throws -> HTTPAnswer {
        let deadline = deadline
        do {
            return try await withThrowingTaskGroup(of: HTTPAnswer?.self) { group in
                group.addTask {
                    let answer = try await Self.http.execute(request, deadline: .now() + deadline)
                    var collected: ByteBuffer
                    do { collected = try await answer.body.collect(upTo: limit) } catch is NIOTooManyBytesError {
                        throw SyncError.unusableFile(hub: hub, reason: "the server's answer to \(what) is larger than \(limit) bytes")
                    }
                    return HTTPAnswer(
                        status: Int(answer.status.code), headers: answer.headers, body: collected.readBytes(length: collected.readableBytes) ?? [])
                }
                group.addTask {
                    try await Task.sleep(for: .nanoseconds(deadline.nanoseconds))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let answer = first else {
                    throw SyncError.hubUnavailable(hub: hub, reason: "the server \(server.name) did not answer \(what) within \(deadline.seconds) s")
                }
                return answer
            }
        } catch let error as SyncError {
            throw error
        } catch let error as HTTPHubError {
            throw error
        } catch {
            throw failure(error)
        }
    }

    /// TLS as the URL asks: the system's authorities, or `sslrootcert`'s alone.
    private func tls() throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let root = server.rootCertificate {
            guard FileSystem.exists(root) else { throw HTTPHubError.rootCertificateMissing(path: root) }
            tls.trustRoots = .file(root)
        }
        return tls
    }

    /// What a request that got no answer means, by the type of what failed.
    private func failure(_ error: any Error) -> any Error {
        if error is CancellationError { return error }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return HTTPHubError.certificateRejected(server: server.name, reason: "it is not for \(server.host)")
        }
        if let error = error as? NIOSSLError, case .uncleanShutdown = error {
            return SyncError.hubUnavailable(hub: hub, reason: "the server \(server.name) closed the connection mid-answer")
        }
        if error is NIOSSLError || error is NIOSSLExtraError {
            return HTTPHubError.certificateRejected(
                server: server.name, reason: "the TLS handshake failed: it is not signed by an authority this machine trusts, or the server does not speak TLS")
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                return SyncError.hubUnavailable(hub: hub, reason: "the server \(server.name) did not answer within \(deadline.seconds) s")
            case .connectTimeout, .tlsHandshakeTimeout:
                return SyncError.hubUnavailable(hub: hub, reason: "the server \(server.name) did not take the connection within 10 s")
            case .cancelled:
                return CancellationError()
            case .remoteConnectionClosed:
                return SyncError.hubUnavailable(hub: hub, reason: "the server \(server.name) closed the connection", code: Self.connectionClosed)
            default:
                return SyncError.hubUnavailable(hub: hub, reason: "the connection to \(server.name) failed (\(error.shortDescription))")
            }
        }
        if let error = error as? ChannelError, error == .ioOnClosedChannel {
            // A kept connection the server had closed before the request was written to it: as a connection
            // closed. (Not an end of file, which may come after a server carried out a write.)
            return SyncError.hubUnavailable(hub: hub, reason: "the server \(server.name) closed the connection", code: Self.connectionClosed)
        }
        let refusal = (error as? IOError) ?? ((error as? NIOConnectionError)?.connectionErrors.lazy.compactMap { $0.error as? IOError }.first)
        if let refusal {
            return SyncError.hubUnavailable(
                hub: hub, reason: "cannot connect to \(server.name): \(String(cString: strerror(refusal.errnoCode)))", code: .errno(refusal.errnoCode))
        }
        if error is NIOConnectionError {
            return SyncError.hubUnavailable(hub: hub, reason: "cannot connect to \(server.name): no address of it answered")
        }
        return SyncError.hubUnavailable(hub: hub, reason: "cannot reach \(server.name) (\(error))")
    }
}

extension TimeAmount {
    fileprivate var seconds: Int64 { nanoseconds / 1_000_000_000 }
}

import AsyncHTTPClient
import JournalKit
import Synchronization
import JournalSync
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

import Glibc

/// A server's answer: its status, headers, and body up to the request's limit.
struct DAVResponse: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]

    var succeeded: Bool { (200..<300).contains(status) }

    /// How long a server that limits its clients (429, 503) asked to be left alone, if it said.
    var retryAfter: Duration? {
        guard status == 429 || status == 503 else { return nil }
        return RetryAfter.wait(headers.first(name: "Retry-After"), serverDate: headers.first(name: "Date"), now: SystemClock().now().milliseconds / 1000)
    }
}

/// The requests of a WebDAV hub to its server: HTTP/1.1 or 2 through AsyncHTTPClient, TLS verified
/// against the system's authorities or the URL's `sslrootcert`, the login sent with every request
/// (Basic, so never without TLS but to this machine), redirects refused (one could carry the login
/// elsewhere), every call bounded in time.
struct DAVClient: Sendable {
    let location: DAVLocation
    let credentials: DAVCredentials
    let patience: HubAccess.Patience

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
            connectionPool: .init(idleTimeout: .seconds(4), concurrentHTTP1ConnectionsPerHostSoftLimit: 16),
            decompression: .disabled))

    /// The most a listing's answer can be: a log of a hundred thousand segments lists in less.
    static let listingLimit = 64 * 1024 * 1024

    /// The code of a connection the server closed before it answered.
    static let connectionClosed = TransportCode.errno(ECONNRESET)

    /// Until when each server (`host:port`) asked to be left alone: no request of this process goes
    /// to it before, the looks of a polled hub and the syncs alike.
    private static let leftAlone = Mutex<[String: ContinuousClock.Instant]>([:])

    /// Refuses, without a request, to reach a server that asked to be left alone a while longer.
    private func checkLeftAlone() throws {
        let until = Self.leftAlone.withLock { $0[location.server] }
        guard let until, case let remaining = ContinuousClock.now.duration(to: until), remaining > .zero else { return }
        throw SyncError.hub(HubFailure(
            .unreachable, hub: location.uri, reason: "the server asked to be left alone for \(remaining.spoken) more", code: .httpStatus(429),
            retryAfter: remaining))
    }

    /// How often a request that met a kept connection the server had closed is sent again, each time on
    /// another: on a busy event loop the pool's idle timer can fire late, and several connections the
    /// server closed may be picked in turn (seen in whole test runs, with dozens of syncs in flight).
    static let closedConnectionRetries = 3

    /// How long one request may take.
    var deadline: TimeAmount {
        switch patience {
        case .syncing: .seconds(120)
        case .glance: .seconds(5)
        }
    }

    /// Sends `method` to the hub's `components` (a collection's URL ends in "/"), and returns the
    /// answer, whatever its status. Fails only when no whole answer came within `deadline` (said as the
    /// hub unreachable), the certificate was refused, the login was refused or is missing, or the body
    /// is past `limit`.
    func send(
        _ method: HTTPMethod, _ components: [String], collection: Bool = false, headers: [(String, String)] = [], body: [UInt8]? = nil,
        limit: Int = 64 * 1024
    ) async throws -> DAVResponse {
        try checkLeftAlone()
        var login = try credentials.known()
        // A login refused is tried again once with what the files say now (a password changed there
        // while the daemon ran), or once with a password asked for.
        for _ in 0..<3 {
            var request = HTTPClientRequest(url: location.url(components, collection: collection))
            request.method = method
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let login { request.setBasicAuth(username: login.login, password: login.password) }
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            if location.secure { request.tlsConfiguration = try tls() }
            let what = "\(method.rawValue) \(location.path(components, collection: collection))"
            let response = try await exchangeAcrossClosedConnections(request, what: what, limit: limit)
            if response.status == 401 {
                login = try credentials.refused()
                continue
            }
            if response.status < 400 { try credentials.succeeded() }
            if let wait = response.retryAfter, wait > .zero {
                let until = ContinuousClock.now.advanced(by: wait)
                Self.leftAlone.withLock { $0[location.server] = until }
            }
            return response
        }
        throw credentials.refusedForGood()
    }

    /// One request and its whole answer, sent again on another connection when the one picked was a
    /// kept connection the server had closed.
    private func exchangeAcrossClosedConnections(_ request: HTTPClientRequest, what: String, limit: Int) async throws -> DAVResponse {
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
    private func exchange(_ request: HTTPClientRequest, what: String, limit: Int) async throws -> DAVResponse {
        let deadline = deadline
        do {
            return try await withThrowingTaskGroup(of: DAVResponse?.self) { group in
                group.addTask {
                    let answer = try await Self.http.execute(request, deadline: .now() + deadline)
                    var collected: ByteBuffer
                    do { collected = try await answer.body.collect(upTo: limit) } catch is NIOTooManyBytesError {
                        throw SyncError.unusableFile(hub: location.uri, reason: "the server's answer to \(what) is larger than \(limit) bytes")
                    }
                    return DAVResponse(
                        status: Int(answer.status.code), headers: answer.headers, body: collected.readBytes(length: collected.readableBytes) ?? [])
                }
                group.addTask {
                    try await Task.sleep(for: .nanoseconds(deadline.nanoseconds))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else {
                    throw SyncError.hubUnavailable(hub: location.uri, reason: "the server \(location.server) did not answer \(what) within \(deadline.seconds) s")
                }
                return response
            }
        } catch let error as SyncError {
            throw error
        } catch let error as DAVHubError {
            throw error
        } catch {
            throw failure(error)
        }
    }

    /// TLS as the URL asks: the system's authorities, or `sslrootcert`'s alone.
    private func tls() throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let root = location.rootCertificate {
            guard FileSystem.exists(root) else { throw DAVHubError.rootCertificateMissing(path: root) }
            tls.trustRoots = .file(root)
        }
        return tls
    }

    /// What a request that got no answer means, by the type of what failed.
    private func failure(_ error: any Error) -> any Error {
        if error is CancellationError { return error }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return DAVHubError.certificateRejected(server: location.server, reason: "it is not for \(location.host)")
        }
        if let error = error as? NIOSSLError, case .uncleanShutdown = error {
            return SyncError.hubUnavailable(hub: location.uri, reason: "the server \(location.server) closed the connection mid-answer")
        }
        if error is NIOSSLError || error is NIOSSLExtraError {
            return DAVHubError.certificateRejected(
                server: location.server, reason: "the TLS handshake failed: it is not signed by an authority this machine trusts, or the server does not speak TLS")
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                return SyncError.hubUnavailable(hub: location.uri, reason: "the server \(location.server) did not answer within \(deadline.seconds) s")
            case .connectTimeout, .tlsHandshakeTimeout:
                return SyncError.hubUnavailable(hub: location.uri, reason: "the server \(location.server) did not take the connection within 10 s")
            case .cancelled:
                return CancellationError()
            case .remoteConnectionClosed:
                return SyncError.hubUnavailable(hub: location.uri, reason: "the server \(location.server) closed the connection", code: Self.connectionClosed)
            default:
                return SyncError.hubUnavailable(hub: location.uri, reason: "the connection to \(location.server) failed (\(error.shortDescription))")
            }
        }
        if let error = error as? ChannelError, error == .ioOnClosedChannel {
            // A kept connection the server had closed before the request was written to it: as a connection
            // closed. (Not an end of file, which may come after a server carried out a write.)
            return SyncError.hubUnavailable(hub: location.uri, reason: "the server \(location.server) closed the connection", code: Self.connectionClosed)
        }
        let refusal = (error as? IOError) ?? ((error as? NIOConnectionError)?.connectionErrors.lazy.compactMap { $0.error as? IOError }.first)
        if let refusal {
            return SyncError.hubUnavailable(
                hub: location.uri, reason: "cannot connect to \(location.server): \(String(cString: strerror(refusal.errnoCode)))",
                code: .errno(refusal.errnoCode))
        }
        if error is NIOConnectionError {
            return SyncError.hubUnavailable(hub: location.uri, reason: "cannot connect to \(location.server): no address of it answered")
        }
        return SyncError.hubUnavailable(hub: location.uri, reason: "cannot reach \(location.server) (\(error))")
    }
}

extension TimeAmount {
    fileprivate var seconds: Int64 { nanoseconds / 1_000_000_000 }
}

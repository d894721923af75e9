import AsyncHTTPClient
import HTTPHubSupport
import JournalKit
import JournalSync
import NIOCore
import NIOHTTP1

/// The requests of a WebDAV hub to its server, through the process's `HTTPExchange`, with the login
/// sent with every request (Basic, so never without TLS but to this machine).
struct DAVClient: Sendable {
    let location: DAVLocation
    let credentials: DAVCredentials
    let exchange: HTTPExchange

    init(location: DAVLocation, credentials: DAVCredentials, patience: HubAccess.Patience) {
        self.location = location
        self.credentials = credentials
        exchange = HTTPExchange(server: location.http, hub: location.uri, patience: patience)
    }

    /// The most a listing's answer can be: a log of a hundred thousand segments lists in less.
    static let listingLimit = 64 * 1024 * 1024

    /// Sends `method` to the hub's `components` (a collection's URL ends in "/"), and returns the
    /// answer, whatever its status. Fails as `HTTPExchange.send` does, and when the login was refused
    /// or is missing.
    func send(
        _ method: HTTPMethod, _ components: [String], collection: Bool = false, headers: [(String, String)] = [], body: [UInt8]? = nil,
        limit: Int = 64 * 1024
    ) async throws -> HTTPAnswer {
        var login = try credentials.known()
        // A login refused is tried again once with what the files say now (a password changed there
        // while the daemon ran), or once with a password asked for.
        for _ in 0..<3 {
            var request = HTTPClientRequest(url: location.url(components, collection: collection))
            request.method = method
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let login { request.setBasicAuth(username: login.login, password: login.password) }
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            let what = "\(method.rawValue) \(location.path(components, collection: collection))"
            let response = try await exchange.send(request, what: what, limit: limit)
            if response.status == 401 {
                login = try credentials.refused()
                continue
            }
            if response.status < 400 { try credentials.succeeded() }
            return response
        }
        throw credentials.refusedForGood()
    }
}

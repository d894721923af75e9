import AsyncHTTPClient
import Crypto
import HTTPHubSupport
import JournalKit
import JournalSync
import NIOCore
import NIOHTTP1

import Glibc

/// An S3 bucket's prefix as a hub's storage: ListObjectsV2, GET, PUT with `If-None-Match: *` or
/// `If-Match`, DELETE, each signed with AWS Signature Version 4 and sent through the process's
/// `HTTPExchange`. What the store answers is said in the words every hub uses: a busy store
/// (503 SlowDown, 429) is out of reach for as long as it asks, a 409 `ConditionalRequestConflict`
/// (another write of the name at once) is tried again, a 404 to `If-Match` is a version not there.
struct S3Storage: HubStorage {
    let place: S3Location
    let source: S3CredentialSource
    let patience: HubAccess.Patience

    var location: String { place.uri }

    /// The most an answer is read to, whatever the object asked for: an error's XML fits.
    static let errorLimit = 64 * 1024

    /// How often a write the store answered with 409 `ConditionalRequestConflict` is sent again.
    static let conflictRetries = 3

    // MARK: HubStorage

    func list(prefix: String, after: String?, limit: Int) async throws -> [StoredObject] {
        var objects: [StoredObject] = []
        var continuation: String?
        let root = place.key("")
        repeat {
            var query = [("list-type", "2"), ("prefix", place.key(prefix)), ("max-keys", String(min(limit - objects.count, 1000)))]
            if let continuation { query.append(("continuation-token", continuation)) } else if let after { query.append(("start-after", place.key(after))) }
            let answer = try await send(.GET, nil, query: query, limit: 16 * 1024 * 1024)
            guard answer.status == 200 else { throw failure(answer, "list \(prefix)") }
            let listing: S3Answers.Listing
            do { listing = try S3Answers.listing(answer.body) } catch {
                throw SyncError.hubUnavailable(hub: location, reason: "the store's listing of \(prefix) cannot be read: \(error.reason)")
            }
            for object in listing.objects {
                guard let name = StoredName.relative(object.key, to: root) else { continue }
                objects.append(StoredObject(name: name, size: object.size, tag: object.etag))
            }
            // A listing cut short goes on from its token, which must be new and come with names: a
            // store that says "more" without either is refused, not taken at its word or asked for ever.
            guard listing.truncated else { break }
            guard let next = listing.continuation, next != continuation, !listing.objects.isEmpty else {
                throw SyncError.hubUnavailable(hub: location, reason: "the store's listing of \(prefix) says it goes on, and does not say from where")
            }
            continuation = next
        } while objects.count < limit
        return objects
    }

    func read(_ name: String, limit: Int) async throws -> [UInt8]? {
        let answer = try await send(.GET, name, limit: max(limit, Self.errorLimit))
        if answer.status == 404, code(answer) != "NoSuchBucket" { return nil }
        guard answer.status == 200 else { throw failure(answer, "read \(name)") }
        guard answer.body.count <= limit else { throw SyncError.unusableFile(hub: location, reason: "\(name) is larger than \(limit) bytes") }
        return answer.body
    }

    func create(_ name: String, _ bytes: [UInt8]) async throws -> String? {
        try await write(name, bytes, condition: ("If-None-Match", "*"))
    }

    func replace(_ name: String, _ bytes: [UInt8], ifUnchanged tag: String) async throws -> String? {
        try await write(name, bytes, condition: ("If-Match", tag))
    }

    func delete(_ name: String) async throws {
        let answer = try await send(.DELETE, name)
        if answer.succeeded || (answer.status == 404 && code(answer) != "NoSuchBucket") { return }
        throw failure(answer, "delete \(name)")
    }

    func facts() async throws -> [HubFact] {
        let region = try source.region()
        let server = place.server(region: region)
        var facts = [HubFact(label: "Store", key: "store", value: place.endpoint == nil ? "AWS S3 in \(region)" : "\(server.name), path-style")]
        facts.append(HubFact(label: "Region", key: "region", value: region))
        let credentials = try source.credentials()
        let from = source.keyFromEnvironment ? "the environment" : "profile \(source.profile)"
        facts.append(HubFact(label: "Access key", key: "access_key", value: "\(credentials.accessKeyID), from \(from)"))
        let tls: String
        if !server.secure {
            tls = "none (http://, this machine only)"
        } else if let root = server.rootCertificate {
            tls = "certificate verified against \(root)"
        } else {
            tls = "certificate verified against the system's authorities"
        }
        facts.append(HubFact(label: "TLS", key: "tls", value: tls))
        return facts
    }

    func lacksConditionalWrites(_ what: String) -> any Error {
        S3HubError.noConditionalWrites(store: (try? place.server(region: source.region()).name) ?? location, found: what)
    }

    // MARK: Requests

    /// Puts `bytes` at `name` on `condition`: its ETag, or nil when the store refused the condition
    /// (412, or 404 to `If-Match`: nothing there).
    private func write(_ name: String, _ bytes: [UInt8], condition: (String, String)) async throws -> String? {
        for _ in 0...Self.conflictRetries {
            let answer = try await send(.PUT, name, headers: [condition, ("Content-Type", "application/octet-stream")], body: bytes)
            if answer.succeeded { return answer.headers.first(name: "ETag") ?? "" }
            if answer.status == 412 { return nil }
            if answer.status == 404, condition.0 == "If-Match", code(answer) != "NoSuchBucket" { return nil }
            // Another write of the name at the same moment: AWS asks for the write to be tried again.
            if answer.status == 409, code(answer) == "ConditionalRequestConflict" { continue }
            // A store that does not know the condition's header (Garage, older stores) says so.
            if answer.status == 501 || (answer.status == 400 && ["NotImplemented", "InvalidArgument"].contains(code(answer) ?? "")) {
                throw lacksConditionalWrites("it answered a write with \(condition.0) with \(answer.status) \(code(answer) ?? "")")
            }
            throw failure(answer, "write \(name)")
        }
        throw SyncError.hubUnavailable(hub: location, reason: "the store answered every write of \(name) with 409 ConditionalRequestConflict", code: .httpStatus(409))
    }

    /// Sends `method` to the object `name` (the bucket for nil), signed; the answer, whatever its status.
    func send(
        _ method: HTTPMethod, _ name: String?, query: [(String, String)] = [], headers: [(String, String)] = [], body: [UInt8]? = nil,
        limit: Int = errorLimit
    ) async throws -> HTTPAnswer {
        let credentials = try source.credentials()
        let region = try source.region()
        let server = place.server(region: region)
        let path = place.path(name)
        let toSign = SignatureV4.Request(
            method: method.rawValue, path: path, query: query.map { (name: $0.0, value: $0.1) }, headers: [("Host", server.name)] + headers,
            payloadHash: body.map { Hex.encode(SHA256.hash(data: $0)) } ?? SignatureV4.emptyPayloadHash)
        let signature = SignatureV4(credentials: credentials, region: region).headers(for: toSign, at: Self.signingTime())
        let queryText = query.map { PercentEncoding.encoded($0.0) + "=" + PercentEncoding.encoded($0.1) }.joined(separator: "&")
        var request = HTTPClientRequest(url: server.url(path) + (queryText.isEmpty ? "" : "?" + queryText))
        request.method = method
        for (name, value) in toSign.headers + signature { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let exchange = HTTPExchange(server: server, hub: location, patience: patience)
        return try await exchange.send(request, what: "\(method.rawValue) \(name ?? "the bucket's listing")", limit: limit)
    }

    /// This machine's time as a signature carries it: "20261129T093000Z".
    static func signingTime() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// The S3 error code of an answer, when it has one.
    private func code(_ answer: HTTPAnswer) -> String? { S3Answers.error(answer.body)?.code }

    /// What an answer that is not the one asked for means, by its status and S3 code.
    func failure(_ answer: HTTPAnswer, _ what: String) -> any Error {
        let error = S3Answers.error(answer.body)
        let code = error?.code
        let transport = TransportCode.httpStatus(answer.status)
        let accessKey = (try? source.credentials().accessKeyID) ?? "?"
        switch (answer.status, code) {
        case (_, "ExpiredToken"), (_, "TokenRefreshRequired"):
            return S3HubError.tokenExpired(accessKey: accessKey)
        case (403, "InvalidAccessKeyId"), (403, "SignatureDoesNotMatch"), (403, "InvalidToken"), (400, "InvalidToken"):
            return S3HubError.credentialsRefused(accessKey: accessKey, store: place.endpoint?.name ?? "AWS S3", code: code ?? "")
        case (403, "RequestTimeTooSkewed"):
            return SyncError.hubUnavailable(
                hub: location, reason: "the store refused the request's time: this machine's clock is more than 15 minutes off", code: transport)
        case (403, _):
            return S3HubError.forbidden(bucket: place.bucket, what: what)
        case (404, "NoSuchBucket"):
            return S3HubError.noSuchBucket(bucket: place.bucket, store: place.endpoint?.name ?? "AWS S3")
        case (301, _), (307, _), (400, "AuthorizationHeaderMalformed"), (400, "IllegalLocationConstraintException"):
            return S3HubError.wrongRegion(bucket: place.bucket, region: error?.region ?? answer.headers.first(name: "x-amz-bucket-region"))
        case (429, _), (503, _):
            let wait = answer.retryAfter
            let asked = wait.map { ", and asks to be left alone for \($0.spoken)" } ?? ""
            return SyncError.hub(HubFailure(
                .unreachable, hub: location, reason: "the store answered \(what) with \(answer.status) \(code ?? "")\(asked)", code: transport, retryAfter: wait))
        default:
            return SyncError.hubUnavailable(hub: location, reason: "the store answered \(what) with HTTP \(answer.status) \(code ?? "")", code: transport)
        }
    }
}

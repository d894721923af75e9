import HTTPHubSupport
import JournalKit
import JournalSync
import NIOHTTP1

/// A hub in a folder of a WebDAV server (Nextcloud, ownCloud, a NAS, Apache, nginx), laid out so that
/// one PROPFIND of its top tells what changed anywhere in it:
///
/// `<folder>/journal-hub-v1/hub.json` says the format and holds the key check;
/// `<device-id>/<first>-<last>.seg` are a device's segments, each written once, whole;
/// `cards/<device-id>.card` each device's card, replaced whole; `epochs/<number>-<id>.epoch` the key
/// epochs' records, each written once; `set-aside/<device-id>/` what a device found in its log but did
/// not write; `claims/` the empty folders that make writing a name exclusive.
///
/// Nothing is written over: a server's PUT is not exclusive (Apache checks `If-None-Match: *` before a
/// rename, nginx ignores it), but MKCOL is, on every server, so each segment and record is claimed by
/// making `claims/<device-id>/<name>/` (or `claims/epochs/<name>/`) before it is put, with
/// `If-None-Match: *` as a second guard. A PUT appears whole or not at all: servers write to a
/// temporary and rename it.
public struct WebDAVHub: Hub {
    /// The hub format this journal writes and reads.
    public static let format = 1
    /// The folder of the empty folders that make writing a name exclusive.
    static let claims = "claims"

    public let id: HubID
    public let firstKeyCheck: String
    let client: DAVClient
    let state = DAVState()

    init(id: HubID, firstKeyCheck: String, client: DAVClient) {
        self.id = id
        self.firstKeyCheck = firstKeyCheck
        self.client = client
    }

    public var location: String { client.location.uri }
    public var kind: HubKind { .webdav }
    var server: DAVLocation { client.location }

    /// Segments can be removed (compaction, a damaged one written again).
    public var canRemoveSegments: Bool { true }
    /// Anyone with the login can replace a file.
    public var segmentsNeverChange: Bool { false }

    /// `components` under the hub's folder (`journal-hub-v1/...`).
    static func inHub(_ components: [String]) -> [String] { [HubLayout.root] + components }

    // MARK: Requests

    /// The members of the hub's collection at `components` (PROPFIND, Depth 1); nil when it is not there.
    func list(_ components: [String]) async throws -> DAVListing? {
        let path = Self.inHub(components)
        let response = try await client.send(
            .PROPFIND, path, collection: true, headers: Self.propfindHeaders(depth: "1"), body: Self.propfindBody, limit: DAVClient.listingLimit)
        if response.status == 404 { return nil }
        guard response.status == 207 else { throw failure(response, .PROPFIND, path) }
        let entries = try readListing(response, of: path)
        let listing = DAVListing(entries, of: server.folder + path, serverTime: response.headers.first(name: "Date").flatMap(HTTPDate.seconds))
        guard listing.collection != nil else {
            throw DAVHubError.listedElsewhere(url: server.url(path, collection: true), href: entries.first.map { "/" + $0.components.joined(separator: "/") } ?? "nothing")
        }
        return listing
    }

    /// The entries of a 207 answer; one that cannot be read is the server's failure, never an empty folder.
    func readListing(_ response: HTTPAnswer, of path: [String]) throws -> [DAVEntry] {
        do { return try Multistatus.entries(response.body) } catch {
            throw SyncError.hubUnavailable(hub: location, reason: "the server's listing of \(path.joined(separator: "/")) cannot be read: \(error.reason)")
        }
    }

    /// One resource's entry (PROPFIND, Depth 0); nil when it is not there.
    func look(_ components: [String], collection: Bool = false) async throws -> DAVEntry? {
        let path = Self.inHub(components)
        let response = try await client.send(
            .PROPFIND, path, collection: collection, headers: Self.propfindHeaders(depth: "0"), body: Self.propfindBody)
        if response.status == 404 { return nil }
        guard response.status == 207 else { throw failure(response, .PROPFIND, path) }
        let entries = try readListing(response, of: path)
        guard let entry = entries.first(where: { $0.components == server.folder + path }) else {
            throw DAVHubError.listedElsewhere(url: server.url(path, collection: collection), href: entries.first.map { "/" + $0.components.joined(separator: "/") } ?? "nothing")
        }
        return entry
    }

    /// The bytes of the file at `components`, at most `limit`; nil when it is not there.
    func get(_ components: [String], limit: Int, what: String) async throws -> [UInt8]? {
        let path = Self.inHub(components)
        let response: HTTPAnswer
        do { response = try await client.send(.GET, path, limit: limit) } catch let error as SyncError where error.hubCondition == .unusableEntry {
            throw SyncError.unusableFile(hub: location, reason: "\(what) \(path.joined(separator: "/")) is larger than \(limit) bytes")
        }
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw failure(response, .GET, path) }
        return response.body
    }

    /// Makes the collection at `components` when it is not there (made by this process, or by
    /// anyone: a folder made twice is one folder).
    func ensureFolder(_ components: [String]) async throws {
        if state.with({ $0.madeFolders.contains(components) }) { return }
        let path = Self.inHub(components)
        let response = try await client.send(.MKCOL, path, collection: true)
        switch response.status {
        case 201, 405:
            break
        case 403 where try await look(components, collection: true)?.isCollection == true:
            // Apache's answer to the loser of two MKCOLs at once.
            break
        default:
            throw failure(response, .MKCOL, path)
        }
        _ = state.with { $0.madeFolders.insert(components) }
    }

    /// Claims `components` by making it, an empty collection: true when this call made it, false
    /// when it was there (made by another, or by an earlier try of this device that died).
    func claim(_ components: [String]) async throws -> Bool {
        let path = Self.inHub(components)
        let response = try await client.send(.MKCOL, path, collection: true)
        switch response.status {
        case 201: return true
        case 405: return false
        case 403: if try await look(components, collection: true) != nil { return false }
        default: break
        }
        throw failure(response, .MKCOL, path)
    }

    /// Puts `bytes` at `components`; with `exclusive`, only where nothing is (`If-None-Match: *`):
    /// false when something other than these bytes was.
    func put(_ bytes: [UInt8], at components: [String], exclusive: Bool) async throws -> Bool {
        let path = Self.inHub(components)
        let response = try await client.send(
            .PUT, path, headers: [("Content-Type", "application/octet-stream")] + (exclusive ? [("If-None-Match", "*")] : []), body: bytes)
        forgetTop()
        if response.succeeded { return true }
        // Taken, perhaps by this very write, sent again after its connection closed (`HTTPExchange`).
        if exclusive, response.status == 412 { return try await OwnWrite.holds(bytes) { try await get(components, limit: $0, what: "what was written") } }
        throw failure(response, .PUT, path)
    }

    /// Deletes the resource at `components`: true when it was there.
    @discardableResult
    func delete(_ components: [String], collection: Bool = false) async throws -> Bool {
        let path = Self.inHub(components)
        let response = try await client.send(.DELETE, path, collection: collection)
        forgetTop()
        if response.status == 404 { return false }
        guard response.succeeded else { throw failure(response, .DELETE, path) }
        return true
    }

    /// This hub changed the hub: its top is listed again at the next look, so that what it wrote is
    /// seen (what others write is seen at the next `refresh`).
    func forgetTop() {
        state.with { $0.top = nil }
    }

    /// What an answer that is not the one asked for means, by its status, in the words every hub uses.
    func failure(_ response: HTTPAnswer, _ method: HTTPMethod, _ path: [String]) -> any Error {
        let what = "\(method.rawValue) \(path.joined(separator: "/"))"
        let code = TransportCode.httpStatus(response.status)
        switch response.status {
        case 207:
            // Apache answers a method refused on one resource of many (under a lock) with a multistatus:
            // the cause (423 on the locked folder) said rather than its consequence (424 on the target).
            let statuses = ((try? Multistatus.entries(response.body)) ?? []).compactMap(\.status).filter { !(200..<300).contains($0) }
            let refusal = statuses.first { $0 != 424 } ?? statuses.first
            if let refusal { return failure(HTTPAnswer(status: refusal, headers: response.headers, body: []), method, path) }
            return SyncError.hubUnavailable(hub: location, reason: "the server answered \(what) with a multistatus that says no failure", code: code)
        case 403 where method == .GET:
            return SyncError.unusableFile(hub: location, reason: "the server refused \(what) (403 Forbidden)", code: code)
        case 403:
            return DAVHubError.forbidden(url: server.url(path, collection: false))
        case 300..<400:
            return DAVHubError.redirected(url: server.url(path, collection: false), status: response.status)
        case 404:
            return SyncError.hubUnavailable(
                hub: location, reason: "\(path.joined(separator: "/")) is not on the server (404); was the hub's folder moved?", code: code)
        case 405, 501:
            return DAVHubError.notWebDAV(url: server.url(path, collection: false), status: response.status)
        case 409:
            // A folder gone since it was made (someone removed it): made again at the next try.
            state.with { $0.madeFolders.removeAll() }
            return SyncError.hubUnavailable(hub: location, reason: "the folder of \(path.joined(separator: "/")) is not on the server (409 to \(what))", code: code)
        case 412:
            return SyncError.hub(HubFailure(.nameTaken, hub: location, reason: path.last ?? what, code: code))
        case 413:
            return DAVHubError.uploadTooLarge(server: server.server)
        case 423:
            return SyncError.hubUnavailable(hub: location, reason: "another client holds a lock on \(path.joined(separator: "/")) (423 Locked)", code: code)
        case 507:
            return SyncError.hubUnavailable(hub: location, reason: "the server has no room left (507 Insufficient Storage)", code: code)
        case 429, 503:
            // A server that limits its clients (Nextcloud's brute-force protection, a proxy) says for how long.
            let wait = response.retryAfter
            let status = response.status == 429 ? "429 Too Many Requests" : "503 Service Unavailable"
            let asked = wait.map { ", and asks to be left alone for \($0.spoken)" } ?? ""
            return SyncError.hub(HubFailure(
                .unreachable, hub: location, reason: "the server answered \(what) with \(status)\(asked)", code: code, retryAfter: wait))
        default:
            return SyncError.hubUnavailable(hub: location, reason: "the server answered \(what) with HTTP \(response.status)", code: code)
        }
    }

    static func propfindHeaders(depth: String) -> [(String, String)] {
        [("Depth", depth), ("Content-Type", "application/xml; charset=utf-8")]
    }

    /// The properties a listing asks for; a server may give fewer (nginx has no getetag).
    static let propfindBody = Array(
        """
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:getcontentlength/><D:getlastmodified/><D:getetag/></D:prop></D:propfind>
        """.utf8)
}

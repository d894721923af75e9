import JournalKit
import JournalSync

/// A WebDAV hub's place: a folder on a server, holding (or to hold) `journal-hub-v1`.
public struct WebDAVPlace: HubPlace {
    let client: DAVClient

    /// The place `url` names; `ask` asks for a password the files do not have (on a terminal, at
    /// `sync init`); `patience` bounds each request.
    public init(url: String, ask: (@Sendable (String) -> String?)? = nil, patience: HubAccess.Patience = .syncing) throws {
        try self.init(url: url, ask: ask, patience: patience, loginFiles: DAVCredentials.files())
    }

    /// The place `url` names, its login looked for in `loginFiles` (`.netrc`s) alone.
    init(url: String, ask: (@Sendable (String) -> String?)? = nil, patience: HubAccess.Patience = .syncing, loginFiles: [String]) throws {
        let location = try DAVLocation.parse(url)
        client = DAVClient(location: location, credentials: DAVCredentials(location: location, ask: ask, files: loginFiles), patience: patience)
    }

    public var kind: HubKind { .webdav }
    public func serviceWarning() -> String? { client.credentials.serviceWarning() }
    public var location: String { client.location.uri }
    public var needsNetwork: Bool { true }
    /// Who shares a server's folder is the server's to say.
    public var canBeSharedByGroup: Bool { false }
    /// A missing folder is said when the hub is made there (409).
    public func missingParent() -> String? { nil }
    /// The journal upgrades what it writes itself.
    public func migrationScript() -> String? { nil }

    /// A hub that is not made yet, to reach the server through.
    private var unopened: WebDAVHub { WebDAVHub(id: HubID(rawValue: ""), firstKeyCheck: "", client: client) }

    public func hubExists() async throws -> Bool {
        // The folder first: a server that is no WebDAV server, or a login refused, is said as such.
        let folder = try await client.send(.PROPFIND, [], collection: true, headers: WebDAVHub.propfindHeaders(depth: "0"), body: WebDAVHub.propfindBody)
        switch folder.status {
        case 207: break
        case 404: return false
        case 403: throw DAVHubError.forbidden(url: client.location.url([], collection: true))
        // A server down, busy, locked or limiting its clients is said as such, not as no WebDAV server.
        case 408, 423, 429, 500..<600: throw unopened.failure(folder, .PROPFIND, [])
        case 300..<400: throw unopened.failure(folder, .PROPFIND, [])
        default: throw DAVHubError.notWebDAV(url: client.location.url([], collection: true), status: folder.status)
        }
        if try await unopened.look([HubLayout.descriptor]) != nil { return true }
        if try await unopened.look([], collection: true) != nil {
            throw SyncError.corruptHub(
                hub: location,
                problem: "\(HubLayout.root) is there but its \(HubLayout.descriptor) is not (another machine may be making it); "
                    + "wait a moment, or remove \(HubLayout.root) if it is left over")
        }
        return false
    }

    public func open(key: SyncKey, expecting hubID: HubID?) async throws -> any Hub {
        guard let bytes = try await unopened.get([HubLayout.descriptor], limit: HubDescriptor.limit, what: HubLayout.descriptor) else {
            throw SyncError.hubUnavailable(hub: location, reason: "there is no hub there (no \(HubLayout.root)/\(HubLayout.descriptor))")
        }
        let descriptor = try HubDescriptor.decode(bytes, hub: location, supported: WebDAVHub.format)
        guard descriptor.format <= WebDAVHub.format else {
            throw SyncError.hubFormatTooNew(hub: location, format: descriptor.format, supported: WebDAVHub.format)
        }
        if let hubID, descriptor.hubID != hubID { throw SyncError.hubReplaced(hub: location) }
        let hub = WebDAVHub(id: descriptor.hubID, firstKeyCheck: descriptor.keyCheck, client: client)
        // A key of a later epoch than the hub's first opens it too; only a join reads every record for it.
        if descriptor.keyCheck != key.check, hubID == nil {
            guard EpochRecord.standing(ofKey: key, records: try await hub.allEpochRecords(), hubID: hub.id, firstKeyCheck: descriptor.keyCheck).epoch != nil
            else { throw SyncError.wrongKey(hub: location, hubID: descriptor.hubID) }
        }
        return hub
    }

    /// Makes the hub's folder, which only one maker can (MKCOL is exclusive on every server), checks
    /// that a second MKCOL of it is refused (the server can create exclusively), then puts hub.json.
    public func make(key: SyncKey, shared: Bool) async throws -> any Hub {
        let hub = WebDAVHub(id: .random(), firstKeyCheck: key.check, client: client)
        let top = WebDAVHub.inHub([])
        let made = try await client.send(.MKCOL, top, collection: true)
        switch made.status {
        case 201: break
        case 405, 403:
            // There now (another machine's), or a server that does not make folders here at all.
            if try await unopened.look([], collection: true) != nil { throw DAVHubError.madeMeanwhile(url: client.location.url([], collection: true)) }
            throw made.status == 403 ? DAVHubError.forbidden(url: client.location.url(top, collection: true))
                : DAVHubError.notWebDAV(url: client.location.url(top, collection: true), status: made.status)
        case 409: throw DAVHubError.noSuchFolder(url: client.location.url([], collection: true))
        default: throw hub.failure(made, .MKCOL, top)
        }
        let again = try await client.send(.MKCOL, top, collection: true)
        if again.succeeded {
            // Not deleted: on a server that cannot tell making from finding, it may be another's.
            throw DAVHubError.noExclusiveCreate(server: client.location.server, feature: "making a folder that is there succeeded (MKCOL answered \(again.status), not 405)")
        }
        let descriptor = HubDescriptor(format: WebDAVHub.format, hubID: hub.id, keyCheck: key.check)
        do {
            guard try await hub.put(descriptor.encoded, at: [HubLayout.descriptor], exclusive: true) else {
                throw DAVHubError.madeMeanwhile(url: client.location.url([], collection: true))
            }
        } catch {
            await hub.unmake()
            throw error
        }
        return hub
    }

    public func nothingToJoin() -> any Error { SyncError.noHubToJoin(hub: location) }
}

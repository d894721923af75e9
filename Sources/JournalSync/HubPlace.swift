import JournalKit

/// Where a hub is, before it is opened: a folder, or a PostgreSQL server. Joining and opening go
/// through it, so that every kind of hub is joined, checked and undone the same way.
public protocol HubPlace: Sendable {
    /// What the journal records as the hub's kind: "folder", "postgres".
    var kind: String { get }
    /// The place as the journal records and shows it: never holds a password.
    var location: String { get }
    /// True when a hub is there.
    func hubExists() async throws -> Bool
    /// Opens the hub there, refusing a newer format or another hub's key before reading anything
    /// else; with `expecting`, a hub of another id as replaced.
    func open(key: SyncKey, expecting hubID: String?) async throws -> any Hub
    /// Makes a new, empty hub there for `key`.
    func make(key: SyncKey, shared: Bool) async throws -> any Hub
    /// Takes back a hub `make` just made, which nothing used: a join that did not commit.
    func unmake(_ hub: any Hub) async
    /// Why a key given to join a hub here joins nothing: there is no hub here.
    func nothingToJoin() -> any Error
}

/// The kinds of hub place a program knows, by the kind the journal records. The journal binary and the
/// tests know folders; the sync program adds PostgreSQL.
public struct HubPlaces: Sendable {
    private let makers: [String: @Sendable (String) throws -> any HubPlace]

    /// Folders only.
    public static let folders = HubPlaces(makers: ["folder": { FolderPlace(folder: $0) }])

    /// These kinds and one more.
    public func adding(_ kind: String, _ maker: @escaping @Sendable (String) throws -> any HubPlace) -> HubPlaces {
        var makers = self.makers
        makers[kind] = maker
        return HubPlaces(makers: makers)
    }

    /// The place of a hub the journal joined.
    public func place(kind: String, location: String) throws -> any HubPlace {
        guard let maker = makers[kind] else {
            throw SyncError.hubUnavailable(hub: location, reason: "this program does not know hubs of the kind \"\(kind)\"")
        }
        return try maker(location)
    }
}

/// A folder hub's place.
public struct FolderPlace: HubPlace {
    public let folder: String

    public init(folder: String) { self.folder = folder }

    public var kind: String { "folder" }
    public var location: String { FileSystem.absolute(folder) }

    public func hubExists() throws -> Bool { try FolderHub.exists(in: folder) }

    public func open(key: SyncKey, expecting hubID: String?) throws -> any Hub {
        try FolderHub.open(folder: folder, key: key, expecting: hubID)
    }

    public func make(key: SyncKey, shared: Bool) throws -> any Hub {
        try FolderHub.create(folder: folder, key: key, shared: shared)
    }

    public func unmake(_ hub: any Hub) {
        (hub as? FolderHub)?.unmake()
    }

    public func nothingToJoin() -> any Error { SyncError.noHubToJoin(hub: location) }
}

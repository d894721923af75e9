import JournalKit

/// Where a hub is, before it is opened: a folder, or a PostgreSQL server. Joining and opening go
/// through it, so that every kind of hub is joined, checked and undone the same way.
public protocol HubPlace: Sendable {
    /// The kind of hub there.
    var kind: HubKind { get }
    /// The place as the journal records and shows it: never holds a password.
    var location: String { get }
    /// True when the daemon reaches the hub over the network (its unit is given the network back).
    var needsNetwork: Bool { get }
    /// True when a hub is there.
    func hubExists() async throws -> Bool
    /// Opens the hub there, refusing a newer format or another hub's key before reading anything
    /// else; with `expecting`, a hub of another id as replaced.
    func open(key: SyncKey, expecting hubID: String?) async throws -> any Hub
    /// Makes a new, empty hub there for `key`.
    func make(key: SyncKey, shared: Bool) async throws -> any Hub
    /// Why a key given to join a hub here joins nothing: there is no hub here.
    func nothingToJoin() -> any Error
    /// What the owner of the hub's storage must run to bring it to what this journal knows, for a
    /// hub whose owner is not the journal (a server schema handed over to another role); nil when
    /// the hub is up to date or there is no such owner.
    func migrationScript() async throws -> String?
}

/// A folder hub's place.
public struct FolderPlace: HubPlace {
    public let folder: String

    public init(folder: String) { self.folder = folder }

    public var kind: HubKind { .folder }
    public var location: String { FileSystem.absolute(folder) }
    /// A mounted folder is reached through the file system, NFS and sync tools included.
    public var needsNetwork: Bool { false }

    public func hubExists() throws -> Bool { try FolderHub.exists(in: folder) }

    /// A folder belongs to whoever writes in it: the journal upgrades it itself.
    public func migrationScript() -> String? { nil }

    public func open(key: SyncKey, expecting hubID: String?) throws -> any Hub {
        try FolderHub.open(folder: folder, key: key, expecting: hubID)
    }

    public func make(key: SyncKey, shared: Bool) throws -> any Hub {
        try FolderHub.create(folder: folder, key: key, shared: shared)
    }

    public func nothingToJoin() -> any Error { SyncError.noHubToJoin(hub: location) }
}

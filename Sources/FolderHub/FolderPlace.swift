import JournalKit
import JournalSync

/// A folder hub's place.
public struct FolderPlace: HubPlace {
    public let folder: String

    public init(folder: String) { self.folder = folder }

    public var kind: HubKind { .folder }
    public var location: String { FileSystem.absolute(folder) }
    /// A mounted folder is reached through the file system, NFS and sync tools included.
    public var needsNetwork: Bool { false }

    public var canBeSharedByGroup: Bool { true }

    public func missingParent() -> String? {
        let parent = FileSystem.parentFolder(of: location)
        return !FileSystem.exists(location) && !FileSystem.isFolder(parent) ? parent : nil
    }

    public func hubExists() throws -> Bool { try FolderHub.exists(in: folder) }

    /// A folder belongs to whoever writes in it: the journal upgrades it itself.
    public func migrationScript() -> String? { nil }

    public func open(key: SyncKey, expecting hubID: HubID?) async throws -> any Hub {
        try await FolderHub.open(folder: folder, key: key, expecting: hubID)
    }

    public func make(key: SyncKey, shared: Bool) throws -> any Hub {
        try FolderHub.create(folder: folder, key: key, shared: shared)
    }

    public func nothingToJoin() -> any Error { SyncError.noHubToJoin(hub: location) }
}

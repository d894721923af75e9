/// The kinds of hub, as the journal records which one it joined (`sync_hub.kind`). The one place that
/// turns a kind into a hub is a program's `HubPlaces`, a `switch` over this: a new kind is a compile
/// error there until it is registered. Everything else a program asks of a hub (its change feed, its
/// description, its format) is the `Hub` protocol's, which a new kind of hub must implement whole.
public enum HubKind: String, Sendable, CaseIterable {
    /// A folder every machine reaches: local, NFS, or copied by Syncthing or Dropbox (`FolderHub`).
    case folder
    /// A PostgreSQL server (`PostgresHub`, a module of its own).
    case postgres
}

/// Where a program finds the place of the hub a journal joined, by its kind: a `switch` over every
/// kind. The sync program reaches every kind; this library's tests, folders.
public protocol HubPlaces: Sendable {
    func place(_ kind: HubKind, location: String) throws -> any HubPlace
}

/// Folders only: what this library reaches without a hub driver of another module.
public struct FolderHubPlaces: HubPlaces {
    public init() {}

    public func place(_ kind: HubKind, location: String) throws -> any HubPlace {
        switch kind {
        case .folder: return FolderPlace(folder: location)
        case .postgres: throw SyncError.unreachableKind(kind: kind.rawValue, hub: location)
        }
    }
}

extension HubPlaces where Self == FolderHubPlaces {
    public static var folders: FolderHubPlaces { FolderHubPlaces() }
}

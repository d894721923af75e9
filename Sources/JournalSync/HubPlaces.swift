import JournalKit

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

import JournalSync
import PostgresHub

/// Every kind of hub the sync program reaches: the one registration of each kind.
struct KnownHubPlaces: HubPlaces {
    func place(_ kind: HubKind, location: String) throws -> any HubPlace {
        switch kind {
        case .folder: return FolderPlace(folder: location)
        case .postgres: return try PostgresPlace(connectionString: location)
        }
    }
}

extension HubPlaces where Self == KnownHubPlaces {
    static var known: KnownHubPlaces { KnownHubPlaces() }
}

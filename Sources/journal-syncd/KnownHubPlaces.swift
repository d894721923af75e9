import JournalSync
import PostgresHub

extension HubPlaces {
    /// Every kind of hub the sync program reaches: folders, and PostgreSQL servers.
    static let known = HubPlaces.folders.adding("postgres") { try PostgresPlace(connectionString: $0) }
}

import JournalKit
import JournalSync
import PostgresHub

/// Every kind of hub the sync program reaches: the one registration of each kind.
struct KnownHubPlaces: HubPlaces {
    /// Asks a person for a password the files do not have, where one can be asked (`sync init` on a
    /// terminal); nil for the daemon and every later sync.
    var askPassword: (@Sendable (String) -> String?)? = nil
    /// How long a call to a server may take.
    var serverCalls: CallLimit = .syncing

    func place(_ kind: HubKind, location: String) throws -> any HubPlace {
        switch kind {
        case .folder: return FolderPlace(folder: location)
        case .postgres: return try PostgresPlace(connectionString: location, ask: askPassword, callLimit: serverCalls)
        }
    }
}

extension HubPlaces where Self == KnownHubPlaces {
    static var known: KnownHubPlaces { KnownHubPlaces() }
    /// For a look at the hub that must answer soon whatever the server does: each call to a server is
    /// bounded by the connection string's connect timeout.
    static var glance: KnownHubPlaces { KnownHubPlaces(serverCalls: .connectTimeout) }
}

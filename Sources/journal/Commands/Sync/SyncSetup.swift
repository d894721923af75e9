import JournalKit
import JournalSync

/// Finding the sync key and the hub a journal is joined to.
enum SyncSetup {
    static func keyPath() throws -> String {
        try JournalPaths.fromEnvironment().configFolder + "/sync.key"
    }

    /// The key and the opened hub of `store`; refuses before touching anything when either is missing
    /// or they do not match.
    static func engine(for store: JournalStore) async throws -> SyncEngine {
        guard let joined = try await store.hub() else { throw SyncError.notJoined }
        let path = try keyPath()
        guard let key = try loadKey(path) else { throw SyncError.noKey(path: path) }
        let hub = try FolderHub.open(folder: joined.location, key: key)
        guard hub.id == joined.hubID else {
            throw SyncError.corruptHub(
                hub: joined.location,
                problem: "it is another hub than the one this journal joined (its id changed); join it again with journal sync init")
        }
        return SyncEngine(store: store, hub: hub, key: key)
    }

    static func loadKey(_ path: String) throws -> SyncKey? {
        do {
            return try SyncKey.load(from: path)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.noKey(path: path)
        }
    }
}

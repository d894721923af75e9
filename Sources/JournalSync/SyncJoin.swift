import JournalKit

/// Joining a journal to a hub: a new hub made with this machine's key, or an existing one opened with
/// the key it was made with, checked before anything is written.
public enum SyncJoin {
    /// What joining did.
    public struct Outcome: Sendable {
        /// True when the hub was made now; false when an existing hub was joined.
        public let madeHub: Bool
        public let hub: FolderHub
        public let device: DeviceID
    }

    /// Joins `store` to the hub in `folder`. `givenKey` is the key the person passed (to join another
    /// machine's hub); without it this machine's key is used, or made for a new hub. The key file is
    /// written only when the journal records the hub, and the journal only once the key opens it.
    public static func join(folder: String, givenKey: SyncKey?, store: JournalStore) async throws -> Outcome {
        let keyPath = try SyncSetup.keyPath()
        let localKey = try SyncSetup.loadKey(keyPath)
        guard FileSystem.isFolder(folder) else {
            throw SyncError.hubUnavailable(hub: folder, reason: "there is no such folder; create or mount it first")
        }
        let hub: FolderHub
        let key: SyncKey
        let made: Bool
        if try FolderHub.exists(in: folder) {
            guard let candidate = givenKey ?? localKey else { throw SyncError.keyRequiredToJoin(hub: folder) }
            hub = try FolderHub.open(folder: folder, key: candidate)
            key = candidate
            made = false
        } else {
            key = givenKey ?? localKey ?? SyncKey()
            hub = try FolderHub.create(folder: folder, key: key)
            made = true
        }
        if localKey?.hex != key.hex { try key.save(to: keyPath) }
        try await store.joinHub(id: hub.id, kind: "folder", location: hub.location)
        return Outcome(madeHub: made, hub: hub, device: store.deviceID)
    }

    /// Gives the journal a device id of its own (a copied database), under the sync lock so that no
    /// sync runs meanwhile. The store keeps the old id: open the journal again to use the new one.
    public static func takeNewDeviceID(_ store: JournalStore) async throws -> DeviceID {
        let lock = try FileLock.sync(databasePath: store.path)
        defer { withExtendedLifetime(lock) {} }
        return try await store.adoptNewDeviceIdentity()
    }
}

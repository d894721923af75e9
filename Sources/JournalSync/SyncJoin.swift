import JournalKit
import Synchronization

import Glibc

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
    /// machine's hub); without it this machine's key is used, or made for a new hub. Whole or not at
    /// all: a new hub and a new key file are written in the journal's join transaction, and removed
    /// again if it does not commit, so a failure leaves the key, the journal and the folder as they were.
    public static func join(folder: String, givenKey: SyncKey?, shared: Bool = false, store: JournalStore) async throws -> Outcome {
        let keyPath = try SyncSetup.keyPath()
        let localKey = try SyncSetup.loadKey(keyPath)
        let exists = try FolderHub.exists(in: folder)
        let key: SyncKey
        let hub: FolderHub
        if exists {
            guard let candidate = givenKey ?? localKey else { throw SyncError.keyRequiredToJoin(hub: folder) }
            hub = try FolderHub.open(folder: folder, key: candidate)
            key = candidate
        } else {
            // A key given means joining another machine's hub: with none here yet (a sync tool still
            // copying it), making one would split the devices between two hubs.
            guard givenKey == nil else { throw SyncError.noHubToJoin(hub: FileSystem.absolute(folder)) }
            key = localKey ?? SyncKey()
            hub = FolderHub(id: UUIDText.random(), location: FileSystem.absolute(folder), shared: shared)
        }
        let previousKey = try FileSystem.exists(keyPath) ? FileSystem.readFile(keyPath, limit: 4096, what: "a key file") : nil
        let wrote = Mutex<(hub: Bool, key: Bool)>((false, false))
        do {
            try await store.joinHub(id: hub.id, kind: "folder", location: hub.location) {
                if !exists {
                    try hub.makeHere(key: key)
                    wrote.withLock { $0.hub = true }
                }
                if localKey?.hex != key.hex {
                    try key.save(to: keyPath)
                    wrote.withLock { $0.key = true }
                }
            }
        } catch {
            // The transaction did not commit: take back what was written for it.
            let written = wrote.withLock { $0 }
            if written.hub { hub.unmake() }
            if written.key {
                if let previousKey {
                    try? FileSystem.writeAtomically(previousKey, to: keyPath, mode: 0o600)
                } else {
                    _ = unlink(keyPath)
                }
            }
            throw error
        }
        return Outcome(madeHub: !exists, hub: hub, device: store.deviceID)
    }

    /// Gives the journal a device id of its own (a copied database), under the sync lock so that no
    /// sync runs meanwhile. The store keeps the old id: open the journal again to use the new one.
    public static func takeNewDeviceID(_ store: JournalStore) async throws -> DeviceID {
        let lock = try FileLock.sync(databasePath: store.path)
        defer { withExtendedLifetime(lock) {} }
        return try await store.adoptNewDeviceIdentity()
    }
}

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
        /// The hub's place as the journal recorded it.
        public let location: String
        public let device: DeviceID
    }

    /// Joins `store` to the hub at `place`. `givenKey` is the key the person passed (to join another
    /// machine's hub); without it this machine's key is used, or made for a new hub. Whole or not at
    /// all: a new hub is taken back, and the key file put back as it was, when the journal's join
    /// transaction does not commit, so a failure leaves the key, the journal and the place as they were.
    public static func join(_ place: any HubPlace, givenKey: PrintedKey?, shared: Bool = false, store: JournalStore) async throws -> Outcome {
        let keyPath = try SyncSetup.keyPath()
        let localKey = try SyncSetup.loadKey(keyPath)
        let exists = try await place.hubExists()
        let key: SyncKey
        let hub: any Hub
        if exists {
            guard let candidate = givenKey?.key ?? localKey else { throw SyncError.keyRequiredToJoin(hub: place.location) }
            hub = try await open(place, key: candidate, label: givenKey?.hubLabel)
            key = candidate
        } else {
            // A key given means joining another machine's hub: with none here yet (a sync tool still
            // copying it), making one would split the devices between two hubs.
            guard givenKey == nil else { throw place.nothingToJoin() }
            key = localKey ?? SyncKey()
            hub = try await place.make(key: key, shared: shared)
        }
        // Joining with an invitation: this device's keys, signed with its secret, show who admitted it.
        var admission: DeviceCard.Admission?
        var tag: [UInt8]?
        if let invitation = givenKey?.invitation {
            let keys = try DeviceKeys.loadOrMake(at: try JournalPaths.fromEnvironment().deviceKeys(of: store.deviceID))
            admission = try Invitations.admission(seed: invitation, hubID: hub.id, device: store.deviceID, keys: keys.publicKeys)
            tag = Invitations.tag(seed: invitation)
        }
        let previousKey = try FileSystem.exists(keyPath) ? FileSystem.readFile(keyPath, limit: 4096, what: "a key file") : nil
        let wroteKey = Mutex(false)
        do {
            try await store.joinHub(id: hub.id, kind: place.kind.rawValue, location: place.location, admission: admission, invitationTag: tag) {
                if localKey?.hex != key.hex {
                    try key.save(to: keyPath)
                    wroteKey.withLock { $0 = true }
                }
            }
        } catch {
            // The transaction did not commit: take back what was written for it.
            if !exists { await hub.unmake() }
            await hub.close()
            if wroteKey.withLock({ $0 }) {
                if let previousKey {
                    try? FileSystem.writeAtomically(previousKey, to: keyPath, mode: 0o600)
                } else {
                    _ = unlink(keyPath)
                }
            }
            throw error
        }
        await hub.close()
        return Outcome(madeHub: !exists, location: place.location, device: store.deviceID)
    }

    /// The hub at `place`, opened with `key`: refused when the key does not open it (said as another
    /// hub's key when it was printed for one, `label`), or was replaced by a rotation (whoever holds a
    /// key from before one may be the one shut out).
    private static func open(_ place: any HubPlace, key: SyncKey, label: String?) async throws -> any Hub {
        let hub: any Hub
        do {
            hub = try await place.open(key: key, expecting: nil)
        } catch SyncError.hub(let failure) {
            // A key printed for another hub is said as such: the person holds the wrong one, not a mistyped one.
            guard case .wrongKey(let hubID) = failure.condition, let label else { throw SyncError.hub(failure) }
            let actual = PrintedKey.labelText(ofHub: hubID)
            if label != actual { throw SyncError.keyForAnotherHub(hub: failure.hub, given: label, actual: actual) }
            throw SyncError.hub(failure)
        }
        let records = (try? await hub.allEpochRecords()) ?? [:]
        if let replaced = EpochRecord.standing(ofKey: key, records: records, hubID: hub.id, firstKeyCheck: hub.firstKeyCheck).replacedAt {
            await hub.close()
            throw SyncError.keyReplaced(hub: place.location, at: replaced)
        }
        return hub
    }

    /// Gives the journal a device id of its own (a copied database), under the sync lock so that no
    /// sync runs meanwhile. The store keeps the old id: open the journal again to use the new one.
    public static func takeNewDeviceID(_ store: JournalStore) async throws -> DeviceID {
        let lock = try FileLock.sync(databasePath: store.path)
        defer { withExtendedLifetime(lock) {} }
        return try await store.adoptNewDeviceIdentity()
    }
}

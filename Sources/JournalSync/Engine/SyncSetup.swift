import JournalKit

/// How a journal finds its sync key and the hub it joined: the same for `journal sync` and the daemon.
public enum SyncSetup {
    /// `$XDG_CONFIG_HOME/journal/sync.key`.
    public static func keyPath() throws -> String {
        try JournalPaths.fromEnvironment().syncKey
    }

    /// A sync engine for `store`, refusing before touching anything when the journal is not joined,
    /// the key is missing, or the key does not open the hub. Its hub may hold a connection open: the
    /// caller closes the engine when done.
    public static func engine(for store: JournalStore, hubs: HubRegistry) async throws -> SyncEngine {
        let (place, hubID) = try await place(of: store, hubs: hubs)
        let path = try keyPath()
        guard let key = try loadKey(path) else { throw SyncError.noKey(path: path) }
        let deviceKeys = try DeviceKeys.loadOrMake(at: try JournalPaths.fromEnvironment().deviceKeys(of: store.deviceID))
        let hub = try await place.open(key: key, expecting: hubID)
        return SyncEngine(store: store, hub: hub, key: key, keyPath: path, deviceKeys: deviceKeys)
    }

    /// The place of the hub `store` joined, and that hub's id; refused when it joined none.
    public static func place(of store: JournalStore, hubs: HubRegistry) async throws -> (place: any HubPlace, hubID: HubID) {
        guard let joined = try await store.hub() else { throw SyncError.notJoined }
        return (try hubs.place(HubKind(rawValue: joined.kind), location: joined.location), joined.hubID)
    }

    /// Runs `body` with a sync engine for `store`, closing it after, whether `body` returns or throws.
    public static func withEngine<T: Sendable>(
        for store: JournalStore, hubs: HubRegistry, _ body: (SyncEngine) async throws -> T
    ) async throws -> T {
        let engine = try await engine(for: store, hubs: hubs)
        do {
            let result = try await body(engine)
            await engine.close()
            return result
        } catch {
            await engine.close()
            throw error
        }
    }

    /// One sync of `store` with its hub, the way `journal sync` runs it: its outcome is recorded for
    /// `journal sync status` whether it fails reaching the hub (opening it: unreachable, wrong key) or
    /// in the middle.
    public static func syncOnce(
        _ store: JournalStore, hubs: HubRegistry, progress: SyncProgress = SyncProgress()
    ) async throws -> SyncReport {
        let engine: SyncEngine
        do { engine = try await self.engine(for: store, hubs: hubs) } catch {
            try? await recordFailure(error, of: store)
            throw error
        }
        do {
            let report = try await engine.syncRecordingResult(progress: progress)
            await engine.close()
            return report
        } catch {
            await engine.close()
            throw error
        }
    }

    /// Records an attempt that failed before its engine could sync (the daemon's, which keeps its
    /// engine between syncs, as well as `syncOnce`'s); nothing when the journal is not joined.
    public static func recordFailure(_ error: any Error, of store: JournalStore) async throws {
        guard let joined = try await store.hub() else { return }
        try await store.recordSyncOutcome(.failed(error), at: store.clock.now(), hubID: joined.hubID)
    }

    /// A new invitation `device` prints with the key: its secret, its public key and the claim the
    /// device's card makes of it, which it keeps (`Invitations`).
    public static func makeInvitation(by device: DeviceID) -> (seed: [UInt8], publicKey: [UInt8], claim: [UInt8]) {
        let made = Invitations.make()
        return (made.seed, made.publicKey, Invitations.claim(tag: Invitations.tag(seed: made.seed), device: device))
    }

    /// The key at `path`, or nil when there is no key file.
    public static func loadKey(_ path: String) throws -> SyncKey? {
        do {
            return try SyncKey.load(from: path)
        } catch let error as SyncError {
            throw error
        } catch let error as FileSystem.Failure {
            throw SyncError.keyUnreadable(path: path, reason: error.reason)
        }
    }
}

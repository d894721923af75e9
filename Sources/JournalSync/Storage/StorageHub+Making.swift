import JournalKit

/// Finding, opening and making a hub on a store: what a kind's `HubPlace` does, once for every store.
extension StorageHub {
    /// True when a hub is on `storage`; a hub's folder with other names but no hub.json is said as a
    /// hub half made (another machine making it), not as none.
    public static func exists(on storage: any HubStorage) async throws -> Bool {
        let first = try await storage.list(prefix: root, after: nil, limit: 1)
        if try await storage.tag(of: descriptorName) != nil { return true }
        guard first.isEmpty else {
            throw SyncError.corruptHub(
                hub: storage.location,
                problem: "\(root) is there but its hub.json is not (another machine may be making it); wait a moment, or remove \(root) if it is left over")
        }
        return false
    }

    /// Opens the hub on `storage`, refusing a newer format or another hub's key before reading
    /// anything else; with `expecting`, a hub of another id as replaced.
    public static func open(
        kind: HubKind, storage: any HubStorage, key: SyncKey, expecting hubID: HubID?, schedule: PollSchedule = PollSchedule()
    ) async throws -> StorageHub {
        guard let bytes = try await storage.read(descriptorName, limit: HubDescriptor.limit) else {
            throw SyncError.hubUnavailable(hub: storage.location, reason: "there is no hub there (no \(descriptorName))")
        }
        let descriptor = try HubDescriptor.decode(bytes, hub: storage.location, supported: format)
        guard descriptor.format <= format else {
            throw SyncError.hubFormatTooNew(hub: storage.location, format: descriptor.format, supported: format)
        }
        if let hubID, descriptor.hubID != hubID { throw SyncError.hubReplaced(hub: storage.location) }
        let hub = StorageHub(kind: kind, storage: storage, id: descriptor.hubID, firstKeyCheck: descriptor.keyCheck, schedule: schedule)
        // A key of a later epoch than the hub's first opens it too; only a join reads every record for it.
        if descriptor.keyCheck != key.check, hubID == nil {
            guard EpochRecord.standing(ofKey: key, records: try await hub.allEpochRecords(), hubID: hub.id, firstKeyCheck: descriptor.keyCheck).epoch != nil
            else { throw SyncError.wrongKey(hub: storage.location, hubID: descriptor.hubID) }
        }
        return hub
    }

    /// Makes a new hub on `storage` for `key`: its conditional writes probed first (a store without them
    /// is refused, naming what it lacks), then hub.json created, which only one maker can.
    public static func make(kind: HubKind, storage: any HubStorage, key: SyncKey, schedule: PollSchedule = PollSchedule()) async throws -> StorageHub {
        try await probeConditionalWrites(storage)
        let hub = StorageHub(kind: kind, storage: storage, id: .random(), firstKeyCheck: key.check, schedule: schedule)
        let descriptor = HubDescriptor(format: format, hubID: hub.id, keyCheck: key.check)
        guard try await storage.createOrFindOwn(descriptorName, descriptor.encoded) != nil else {
            throw StorageHubError.madeMeanwhile(hub: storage.location)
        }
        return hub
    }

    /// Checks, on an object of a random name, that the store refuses a second create of one name and a
    /// replace of a version that is not there: without them two devices could write over each other.
    static func probeConditionalWrites(_ storage: any HubStorage) async throws {
        let probe = name("probe-" + UUIDText.random())
        guard let tag = try await storage.create(probe, Array("probe".utf8)) else {
            throw storage.lacksConditionalWrites("a create of a new random name was refused as taken")
        }
        do {
            if try await storage.create(probe, Array("again".utf8)) != nil {
                throw storage.lacksConditionalWrites("a second create of one name succeeded: If-None-Match: * is ignored")
            }
            if try await storage.replace(probe, Array("stale".utf8), ifUnchanged: "\"0123456789abcdef0123456789abcdef\"") != nil {
                throw storage.lacksConditionalWrites("a replace of a version that is not there succeeded: If-Match is ignored")
            }
            guard try await storage.replace(probe, Array("fresh".utf8), ifUnchanged: tag) != nil else {
                throw storage.lacksConditionalWrites("a replace of the version there was refused: If-Match is not matched")
            }
        } catch {
            try? await storage.delete(probe)
            throw error
        }
        try await storage.delete(probe)
    }
}

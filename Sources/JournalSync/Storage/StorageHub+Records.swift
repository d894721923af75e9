import JournalKit

/// The cards and the key epochs' records: an object each, listed in pages.
extension StorageHub {
    public func cardList(after: DeviceID?, limit: Int) async throws -> [HubListing<DeviceID>] {
        try await listing(prefix: Self.cardsPrefix, after: after, limit: limit, HubLayout.device(ofCard:))
    }

    public func cards(of devices: [DeviceID]) async throws -> [DeviceID: Result<[UInt8], SyncError>] {
        try await HubRecords.read(devices) { try await storage.read(Self.cardName($0), limit: CardSeal.maximumBytes) }
    }

    /// Puts the card in place of the one there (a device's card is its own to replace), in the version
    /// read. A device's first card makes its head too: the others' looks see a device that joined.
    public func writeCard(_ bytes: [UInt8], of device: DeviceID) async throws {
        state.withLock { $0.listings[Self.cardsPrefix] = nil }
        if try await storage.put(Self.cardName(device), bytes) {
            await rewriteHead(Self.headName(device), saying: "joined")
        }
    }

    public func epochList(after: KeyEpoch?, limit: Int) async throws -> [HubListing<KeyEpoch>] {
        try await listing(prefix: Self.epochsPrefix, after: after, limit: limit, HubLayout.epoch(ofRecord:))
    }

    public func epochRecords(_ epochs: [KeyEpoch]) async throws -> [KeyEpoch: Result<[UInt8], SyncError>] {
        try await HubRecords.read(epochs) { try await storage.read(Self.epochName($0), limit: EpochRecord.maximumBytes) }
    }

    /// Creates the record, never over one there, then rewrites `heads/epochs`: the others' looks see a
    /// new key.
    public func writeEpochRecord(_ bytes: [UInt8], as epoch: KeyEpoch) async throws {
        state.withLock { $0.listings[Self.epochsPrefix] = nil }
        guard try await storage.createOrFindOwn(Self.epochName(epoch), bytes) != nil else {
            throw SyncError.hub(HubFailure(.nameTaken, hub: location, reason: "key epoch record \(epoch.fileName)", code: .httpStatus(412)))
        }
        await rewriteHead(Self.epochsHead, saying: epoch.fileName)
    }

    /// The names under `prefix` that `parse` takes, past `after` in their order, at most `limit`. The
    /// whole prefix is listed (cards are a device's each, records a rotation's): a store lists in the
    /// byte order of names, which is not an epoch's order ("10-…" before "2-…"). The listing is kept
    /// until the next refresh or write under the prefix: a sync pages through it, and asks once more
    /// past its last name.
    private func listing<Name: Comparable & Sendable>(
        prefix: String, after: Name?, limit: Int, _ parse: (String) -> Name?
    ) async throws -> [HubListing<Name>] {
        let objects: [StoredObject]
        if after != nil, let kept = state.withLock({ $0.listings[prefix] }) {
            objects = kept
        } else {
            objects = try await storage.listAll(prefix: prefix)
            state.withLock { $0.listings[prefix] = objects }
        }
        let listed = objects.compactMap { object -> HubListing<Name>? in
            guard let name = StoredName.relative(object.name, to: prefix), !name.contains("/"), let parsed = parse(name) else { return nil }
            return HubListing(name: parsed, fingerprint: Self.fingerprint(object))
        }
        return Array(ListingPage.of(listed.sorted { $0.name < $1.name }, after: after, limit: limit, name: \.name))
    }
}

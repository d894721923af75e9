import JournalKit
import JournalSync

/// The cards and the key epochs' records: a file each, listed in pages.
extension WebDAVHub {
    public func cardList(after: DeviceID?, limit: Int) async throws -> [HubListing<DeviceID>] {
        try await listing(in: HubLayout.cards, after: after, limit: limit, replaceable: true, HubLayout.device(ofCard:))
    }

    public func cards(of devices: [DeviceID]) async throws -> [DeviceID: Result<[UInt8], SyncError>] {
        try await HubRecords.read(devices) { device in
            try await get([HubLayout.cards, HubLayout.cardFileName(device)], limit: CardSeal.maximumBytes, what: "device card")
        }
    }

    /// Puts the card in place of the one there: a device's card is its own to replace.
    public func writeCard(_ bytes: [UInt8], of device: DeviceID) async throws {
        try await ensureFolder([HubLayout.cards])
        _ = try await put(bytes, at: [HubLayout.cards, HubLayout.cardFileName(device)], exclusive: false)
    }

    public func epochList(after: KeyEpoch?, limit: Int) async throws -> [HubListing<KeyEpoch>] {
        try await listing(in: HubLayout.epochs, after: after, limit: limit, replaceable: false, HubLayout.epoch(ofRecord:))
    }

    public func epochRecords(_ epochs: [KeyEpoch]) async throws -> [KeyEpoch: Result<[UInt8], SyncError>] {
        try await HubRecords.read(epochs) { epoch in
            try await get([HubLayout.epochs, epoch.fileName], limit: EpochRecord.maximumBytes, what: "key epoch record")
        }
    }

    /// Claims the record's name, then puts it; never over one there.
    public func writeEpochRecord(_ bytes: [UInt8], as epoch: KeyEpoch) async throws {
        try await ensureFolder([HubLayout.epochs])
        try await ensureFolder([Self.claims])
        try await ensureFolder([Self.claims, HubLayout.epochs])
        let taken = SyncError.hub(HubFailure(.nameTaken, hub: location, reason: "key epoch record \(epoch.fileName)", code: .httpStatus(405)))
        // A claim whose record is not there (a put that died, a record someone removed) is taken up:
        // the name holds a random id, so whoever wrote under it wrote this record.
        if try await !claim([Self.claims, HubLayout.epochs, epoch.fileName]), try await look([HubLayout.epochs, epoch.fileName]) != nil { throw taken }
        let put: Bool
        do { put = try await self.put(bytes, at: [HubLayout.epochs, epoch.fileName], exclusive: true) } catch {
            _ = try? await delete([Self.claims, HubLayout.epochs, epoch.fileName], collection: true)
            throw error
        }
        guard put else { throw taken }
    }

    /// The names in the hub's folder `folder` that `parse` takes, past `after` in their order, at most
    /// `limit`, each with its fingerprint (`replaceable`: of files replaced in place). The folder is
    /// listed again only when its fingerprint in the top's listing changed (or had not settled), so
    /// paging through many names lists them once.
    private func listing<Name: Comparable & Sendable>(
        in folder: String, after: Name?, limit: Int, replaceable: Bool, _ parse: (String) -> Name?
    ) async throws -> [HubListing<Name>] {
        let top = try await top()
        guard let entry = top.members[folder], entry.isCollection else { return [] }
        let members: [String: String]
        if let kept = state.with({ $0.folders[folder] }), kept.fingerprint == entry.fingerprint {
            members = kept.value
        } else {
            if let listing = try await list([folder]) {
                members = listing.members.mapValues { replaceable ? listing.replaceableFingerprint($0) : $0.fingerprint }
            } else {
                members = [:]
            }
            let settled = top.isSettled(entry)
            state.with { $0.folders[folder] = settled ? DAVState.KeptListing(fingerprint: entry.fingerprint, value: members) : nil }
        }
        let sorted = members.compactMap { name, fingerprint in parse(name).map { HubListing(name: $0, fingerprint: fingerprint) } }
            .sorted { $0.name < $1.name }
        return Array(ListingPage.of(sorted, after: after, limit: limit, name: \.name))
    }
}

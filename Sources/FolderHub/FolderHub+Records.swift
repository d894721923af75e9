import JournalKit
import JournalSync

import Glibc

/// The cards and the key epochs' records: a file each, listed in pages.
extension FolderHub {
    public func cardList(after: DeviceID?, limit: Int) throws(SyncError) -> [HubListing<DeviceID>] {
        try listing(in: HubLayout.cards, after: after, limit: limit, HubLayout.device(ofCard:))
    }

    public func cards(of devices: [DeviceID]) async throws -> [DeviceID: Result<[UInt8], SyncError>] {
        try available()
        return try await HubRecords.read(devices) { device in
            try record(HubLayout.cardFileName(device), in: HubLayout.cards, limit: CardSeal.maximumBytes, what: "a device card")
        }
    }

    /// The bytes of the record `name` in the hub's folder `folder`; nil when it is gone since it was
    /// listed (its device replaced it, or someone removed it), while the hub is there.
    private func record(_ name: String, in folder: String, limit: Int, what: String) throws(SyncError) -> [UInt8]? {
        do { return try files.read(name, in: [HubLayout.root, folder], limit: limit, what: what) } catch where error.isMissing {
            try available()
            return nil
        } catch {
            throw hubFailure(error)
        }
    }

    /// The names in the hub's folder `folder` that `parse` takes, past `after` in their order, at most
    /// `limit`, each with its fingerprint (`FolderAccess.identity`): a missing folder holds none.
    private func listing<Name: Comparable>(
        in folder: String, after: Name?, limit: Int, _ parse: @Sendable (String) -> Name?
    ) throws(SyncError) -> [HubListing<Name>] {
        try available()
        // The folder's names in order, read again only when the folder changed: paging through a hundred
        // thousand junk names lists and sorts them once, not once a page.
        let sorted: [String]
        do {
            sorted = try listings.names(of: folder, in: files, parentComponents: [HubLayout.root]) { names in
                names.compactMap { name in parse(name).map { (name, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
            }
        } catch where error.isMissing { return [] } catch {
            throw hubFailure(error)
        }
        let page = Array(ListingPage.of(sorted, after: after, limit: limit, name: parse))
        // A file gone between the listing and its look is not listed.
        let identities = try hubCall { try files.identities(of: page, in: [HubLayout.root, folder]) }
        return zip(page, identities).compactMap { name, identity in
            guard let identity, let parsed = parse(name) else { return nil }
            return HubListing(name: parsed, fingerprint: identity)
        }
    }

    public func writeCard(_ bytes: [UInt8], of device: DeviceID) throws {
        try available()
        do {
            // What a card's write that died left here; a folder not made yet has none, and a temporary
            // that stays is only untidy: the card is written either way.
            try? files.removeLeftovers(in: [HubLayout.root, HubLayout.cards], olderMarker: ".card.tmp-")
            _ = try files.writeNew(bytes, as: HubLayout.cardFileName(device), in: [HubLayout.root, HubLayout.cards], replacing: true)
        } catch {
            // `cards` made a file or a link by another member is the cards' failure, not the hub's.
            throw hubFailure(error)
        }
    }

    public func epochList(after: KeyEpoch?, limit: Int) throws(SyncError) -> [HubListing<KeyEpoch>] {
        try listing(in: HubLayout.epochs, after: after, limit: limit, HubLayout.epoch(ofRecord:))
    }

    public func epochRecords(_ epochs: [KeyEpoch]) async throws -> [KeyEpoch: Result<[UInt8], SyncError>] {
        try available()
        return try await HubRecords.read(epochs) { epoch in
            try record(epoch.fileName, in: HubLayout.epochs, limit: EpochRecord.maximumBytes, what: "a key epoch's record")
        }
    }

    public func writeEpochRecord(_ bytes: [UInt8], as epoch: KeyEpoch) throws {
        try available()
        do {
            try? files.removeLeftovers(in: [HubLayout.root, HubLayout.epochs], olderMarker: ".epoch.tmp-")
            _ = try files.writeNew(bytes, as: epoch.fileName, in: [HubLayout.root, HubLayout.epochs])
        } catch {
            throw hubFailure(error)
        }
    }
}

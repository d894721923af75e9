import Crypto
import JournalKit

extension SyncEngine {
    /// How many cards or records are read from the hub at once.
    static let readingBatch = 64
    /// The most records new on the hub a reading keeps in hand before it knows whether they hold: those
    /// whose parent's key is not held yet (a rotation and its child made since the last sync). Past
    /// that, they wait for the next sync, which holds more keys.
    static let recordsInHand = 1024
    /// The most cards that did not open for want of a key a reading keeps in hand, to try again with
    /// the keys its cards give.
    static let cardsInHand = 1024
    /// The most records of a revoked device that does not stand a journal keeps: enough for any conflict
    /// it can make to be seen (`EpochChain.conflict`), few enough that it cannot fill the journal.
    static let recordsOfRevoked = 64
    /// The most cards and records refused a sync names one by one; the rest are counted
    /// (`SyncReport.moreSetAside`), and `sync status` counts them all.
    static let namedRefusals = 100

    /// Reads the hub's key epochs and cards together, each helping to read the other: a card sealed
    /// under a newer key opens once a record gives that key, and a record counts once its maker's card
    /// checks its signature. Both are listed page by page beside what the journal remembers of them
    /// (`sync_hub_items`), and only what is new or changed on the hub is read; records whose proof
    /// checked are kept in the journal (`sync_epoch_records`). Junk (anything that is no record or card
    /// of this hub) is read once, said once and counted, whatever its name or number: no amount of it
    /// pushes a record or card out of view, and a reading holds a page of names and the cards and records
    /// that count, never every name on the hub. Sets `epochs` and `membership`, and returns the cards
    /// read. The records' listing failing ends the sync: without it, which key seals what is not known;
    /// the cards' (`CardsUnreachable`) does not, as cards are what devices say of themselves.
    func takeUpEpochs(leftInPlace: Set<HubEntry>, into report: inout SyncReport) async throws -> HubReading {
        let keptCards = try await store.deviceCards(hubID: hub.id)
        for card in keptCards { knownNames[card.device] = card.name }
        var records = try await readEpochRecords(keptCards: keptCards, leftInPlace: leftInPlace, into: &report)
        // A key that is neither the hub's first nor any record's opens nothing here (a key file replaced).
        if key.check != hub.firstKeyCheck, ownEpochCandidates(records.parsed).candidates.isEmpty {
            throw SyncError.wrongKey(hub: hub.location, hubID: hub.id)
        }
        var reading = HubReading()
        var opened = CardsOpened()
        do {
            try await readCards(keptCards: keptCards, records: &records, into: &opened, leftInPlace: leftInPlace, report: &report)
        } catch let error as CardsUnreachable {
            // What was read before the cards failed stands.
            reading.unreachable = error
        }
        reading.refused = opened.refused
        ownEpoch = records.ownEpoch
        epochs = records.settled
        try await keepEpochRecords(records, leftInPlace: leftInPlace, into: &report)
        // The cards taken now: kept, and remembered as read, at the sync's end.
        for (device, (card, fingerprint)) in opened.taken.sorted(by: { $0.key < $1.key }) {
            reading.cards.append(card)
            reading.cardItems.append(HubItem(kind: .card, name: device.rawValue, fingerprint: fingerprint, outcome: .taken))
        }
        cardsKnown = Self.latest(keptCards, reading.cards)
        membership = Membership(chain: epochs, cards: cardsKnown, device: store.deviceID)
        return reading
    }

    /// The key epoch records as a reading finds them: those kept in the journal and those new or
    /// changed on the hub, page by page, read once each (a record whose parent's key is not held yet
    /// waits, and is read again once anything new comes, which may be the parent); and the chain
    /// they make with the cards kept.
    private func readEpochRecords(keptCards: [DeviceCard], leftInPlace: Set<HubEntry>, into report: inout SyncReport) async throws -> EpochRecordsRead {
        var records = EpochRecordsRead(kept: try await store.epochRecordBytes(hubID: hub.id), hubID: hub.id, key: key)
        (records.ownEpoch, records.settled) = ownEpochCandidates(records.parsed).settled { chain(records: records.parsed, cards: keptCards, ownEpoch: $0) }
        let heldBefore = Self.keysDigest(records.settled.keys)
        try await walk(
            .epoch, name: Self.itemName, list: { after in try await self.epochCall { try await self.hub.epochList(after: after, limit: ListingPage.size) } },
            visit: { page, remembered in
                let (items, toFetch) = Self.epochPage(page, remembered: remembered, records: &records, heldBefore: heldBefore, note: { epoch, reason in
                    self.note(epoch: epoch, reason, into: &report, leftInPlace)
                })
                try await store.recordHubItems(items, hubID: hub.id)
                try await fetch(toFetch, into: &records, report: &report, leftInPlace: leftInPlace)
            },
            gone: { names in
                // A record kept here but gone from the hub goes back: another device may need it, and
                // records are written once and never removed by a journal.
                for name in names {
                    guard let epoch = Self.epoch(itemName: name), let bytes = records.kept[epoch.fileName] else { continue }
                    try? await hub.writeEpochRecord(bytes, as: epoch)
                }
            })
        if !records.fetched.isEmpty {
            try await fetch(records.waited, into: &records, report: &report, leftInPlace: leftInPlace)
            // The epoch of this device's key, and the chain, with the records read now.
            (records.ownEpoch, records.settled) = ownEpochCandidates(records.parsed).settled {
                chain(records: records.parsed, cards: keptCards, ownEpoch: $0)
            }
        }
        return records
    }

    /// Of a page of the records' listing, what to remember at once (a kept record changed on the hub:
    /// the copy kept stands, said once) and what to read (new, changed, or waiting for a key held now).
    private static func epochPage(
        _ page: [HubListing<KeyEpoch>], remembered: [String: HubItem], records: inout EpochRecordsRead, heldBefore: String,
        note: (KeyEpoch, String) -> Void
    ) -> (items: [HubItem], toFetch: [HubListing<KeyEpoch>]) {
        var items: [HubItem] = []
        var toFetch: [HubListing<KeyEpoch>] = []
        for entry in page {
            let item = remembered[itemName(entry.name)]
            if records.kept[entry.name.fileName] != nil {
                // Records never change: one that did is not its epoch's any more, and the copy kept stands.
                if item?.fingerprint != entry.fingerprint {
                    items.append(HubItem(kind: .epoch, name: itemName(entry.name), fingerprint: entry.fingerprint, outcome: .taken))
                    if item != nil { note(entry.name, "it was changed on the hub after it was written: the record as this journal first read it is kept") }
                }
                continue
            }
            if let item, item.fingerprint == entry.fingerprint {
                if item.outcome == .refused { continue }
                if item.outcome == .waiting, item.keys == heldBefore {
                    if records.waited.count < recordsInHand { records.waited.append(entry) }
                    continue
                }
            }
            toFetch.append(entry)
        }
        return (items, toFetch)
    }

    /// Reads `listings` into `records`, with the keys held now.
    private func fetch(
        _ listings: [HubListing<KeyEpoch>], into records: inout EpochRecordsRead, report: inout SyncReport, leftInPlace: Set<HubEntry>
    ) async throws {
        let read = try await fetchRecords(listings, keys: records.settled.keys, parsed: records.parsed, inHand: records.fetched.count, into: &report, leftInPlace)
        for (epoch, record) in read {
            records.parsed[epoch] = record.record
            records.fetched[epoch] = (record.bytes, record.fingerprint)
        }
    }

    /// The cards new or changed on the hub, page by page, opened with the keys held. A card that
    /// verifies is kept only when its device may be a member (`mayKeep`): a revoked device can make
    /// any number of cards that verify under the keys it kept, and they must cost one reading each,
    /// not the journal's room and every sync's time. Keys found through the cards read (a record's
    /// maker known only by its card) open more, and settle `records`' chain.
    private func readCards(
        keptCards: [DeviceCard], records: inout EpochRecordsRead, into opened: inout CardsOpened, leftInPlace: Set<HubEntry>,
        report: inout SyncReport
    ) async throws {
        // Whether a kept card's device is a member, before any card is read: a card under its id with
        // other keys is refused when it is.
        let members = Membership(chain: records.settled, cards: keptCards, device: store.deviceID)
        let known = Dictionary(keptCards.map { ($0.device, $0) }, uniquingKeysWith: { _, last in last })
        var mayKeep = CardKeeping(
            known: Set(known.keys), named: Self.devicesNamed(chain: records.settled, cards: keptCards, membership: members),
            admitting: records.settled.admitting)
        let held = Self.keysDigest(records.settled.keys)
        let settledKeys = records.settled.keys
        try await walk(
            .card, name: \.rawValue, list: { after in try await self.cardsOnHub { try await self.hub.cardList(after: after, limit: ListingPage.size) } },
            visit: { page, remembered in
                let toRead = page.filter { entry in Self.cardToRead(entry, remembered: remembered, known: known, held: held, own: store.deviceID) }
                opened.merge(try await openCards(toRead, keys: settledKeys, known: known, members: members, mayKeep: mayKeep, into: &report, leftInPlace))
            },
            gone: { _ in })
        while true {
            let next = chain(records: records.parsed, cards: Self.latest(keptCards, opened.taken.values.map(\.card)), ownEpoch: records.ownEpoch)
            let more = next.keys.count > records.settled.keys.count
            records.settled = next
            mayKeep.admitting = next.admitting
            guard more, !opened.waiting.isEmpty else { break }
            let retry = opened.waiting
            opened.waiting = []
            opened.merge(try await openCards(retry, keys: next.keys, known: known, members: members, mayKeep: mayKeep, into: &report, leftInPlace))
        }
        // Devices a member vouches for, or a record gives the key to, whose cards are not kept here (not
        // members when last read): read again, whatever was remembered of them.
        let latest = Self.latest(keptCards, opened.taken.values.map(\.card))
        mayKeep.named = Self.devicesNamed(chain: records.settled, cards: latest, membership: Membership(chain: records.settled, cards: latest, device: store.deviceID))
        let missing = mayKeep.named.subtracting(latest.map(\.device)).subtracting([store.deviceID]).sorted().prefix(Self.cardsInHand)
        if !missing.isEmpty {
            opened.merge(try await openCards(
                missing.map { HubListing(name: $0, fingerprint: "") }, keys: records.settled.keys, known: known, members: members, mayKeep: mayKeep,
                into: &report, leftInPlace))
        }
    }

    /// True when the card `entry` lists is to be read: new or changed since it was read, waiting for a
    /// key that is held now, or kept by an earlier journal that did not note the epoch it was sealed under.
    private static func cardToRead(_ entry: HubListing<DeviceID>, remembered: [String: HubItem], known: [DeviceID: DeviceCard], held: String, own: DeviceID) -> Bool {
        guard entry.name != own else { return false }
        guard let item = remembered[entry.name.rawValue], item.fingerprint == entry.fingerprint else { return true }
        switch item.outcome {
        case .refused: return false
        case .waiting: return item.keys != held
        case .taken: return known[entry.name]?.sealedEpoch == nil
        }
    }

    /// Keeps the records read now whose proof checked, and remembers what came of each
    /// (`EpochRecordsRead.outcome`): refused ones are said once.
    private func keepEpochRecords(_ records: EpochRecordsRead, leftInPlace: Set<HubEntry>, into report: inout SyncReport) async throws {
        let held = Self.keysDigest(epochs.keys)
        var keep: [String: [UInt8]] = [:]
        var items: [HubItem] = []
        var byRevoked = records.keptByRevoked(epochs)
        for (epoch, (bytes, fingerprint)) in records.fetched.sorted(by: { $0.key < $1.key }) {
            let name = Self.itemName(epoch)
            switch records.outcome(of: epoch, in: epochs, byRevoked: &byRevoked) {
            case .keep:
                keep[epoch.fileName] = bytes
                items.append(HubItem(kind: .epoch, name: name, fingerprint: fingerprint, outcome: .taken))
            case .refuse(let reason):
                items.append(HubItem(kind: .epoch, name: name, fingerprint: fingerprint, outcome: .refused, reason: reason))
                note(epoch: epoch, reason, into: &report, leftInPlace)
            case .wait:
                items.append(HubItem(kind: .epoch, name: name, fingerprint: fingerprint, outcome: .waiting, keys: held))
            }
        }
        try await store.keepEpochRecords(keep, hubID: hub.id)
        try await store.recordHubItems(items, hubID: hub.id)
        for (epoch, reason) in epochs.refused { note(epoch: epoch, reason, into: &report, leftInPlace) }
    }

    /// Devices that may be members whatever their cards are sealed under: those an admitted device
    /// vouches for, and those a record that admits now gives its key to.
    static func devicesNamed(chain: EpochChain, cards: [DeviceCard], membership: Membership) -> Set<DeviceID> {
        var named = Set(cards.filter { membership.admits($0.device) }.flatMap { ($0.vouches ?? []).map(\.device) })
        for record in chain.valid where chain.admitting.contains(record.epoch) && chain.revoked[record.maker] == nil {
            named.formUnion(record.reaches)
        }
        return named.subtracting(chain.revoked.keys)
    }

    /// The kept cards with the ones read now in place of older ones of the same device.
    static func latest(_ kept: [DeviceCard], _ read: [DeviceCard]) -> [DeviceCard] {
        let replaced = Set(read.map(\.device))
        return kept.filter { !replaced.contains($0.device) } + read
    }

    /// The epochs whose keys are held, as one text: a record or card that waited for a key is read again
    /// when it changes.
    static func keysDigest(_ keys: [KeyEpoch: SyncKey]) -> String {
        Hex.encode(SHA256.hash(data: Array(keys.keys.sorted().map(\.text).joined(separator: ",").utf8)).prefix(16))
    }

    /// How a record's epoch is named in `sync_hub_items`: its number padded, so that the names' order as
    /// text is the epochs' order, as a hub lists them.
    static func itemName(_ epoch: KeyEpoch) -> String {
        let number = String(epoch.number)
        return String(repeating: "0", count: 10 - number.count) + number + "-" + Hex.encode(epoch.id)
    }

    /// The epoch an item name (`itemName`) names.
    static func epoch(itemName: String) -> KeyEpoch? {
        let parts = itemName.split(separator: "-")
        guard parts.count == 2, let number = UInt32(parts[0]) else { return nil }
        return KeyEpoch(text: "\(number)-\(parts[1])")
    }

    /// The chain `records` make with the signing keys of `cards`, for this device holding its key as the
    /// key of `ownEpoch`.
    /// Worked out once for the same records, key and makers' cards: a daemon's sync that brings a drink
    /// checks no record's proof or signature again, nor unwraps a key again (`ChainMemo`).
    private func chain(records: [KeyEpoch: EpochChain.Parsed], cards: [DeviceCard], ownEpoch: KeyEpoch) -> EpochChain {
        let makers = Set(records.values.map(\.record.maker))
        var signers: [DeviceID: [UInt8]] = [store.deviceID: deviceKeys.publicKeys.signing]
        for card in cards where card.device != store.deviceID && makers.contains(card.device) { signers[card.device] = card.signingKey }
        let memo = ChainMemo(records: Set(records.keys), signers: signers, ownEpoch: ownEpoch, key: key.check)
        if let known = chainMemos.first(where: { $0.memo == memo }) { return known.chain }
        let chain = EpochChain(
            records: records, own: key, ownEpoch: ownEpoch, firstKeyCheck: hub.firstKeyCheck, signers: signers, device: store.deviceID,
            deviceKeys: deviceKeys, hubID: hub.id)
        chainMemos = Array(([(memo, chain)] + chainMemos).prefix(4))
        return chain
    }

    /// The epochs this device's key may be the key of.
    private func ownEpochCandidates(_ records: [KeyEpoch: EpochChain.Parsed]) -> OwnEpochCandidates {
        OwnEpochCandidates(candidates: EpochRecord.epochs(ofKey: key, among: records, hubID: hub.id, firstKeyCheck: hub.firstKeyCheck))
    }
}

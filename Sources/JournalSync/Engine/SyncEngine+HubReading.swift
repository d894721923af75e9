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
        let keptRecords = try await store.epochRecordBytes(hubID: hub.id)
        var parsed: [KeyEpoch: EpochChain.Parsed] = [:]
        for (name, bytes) in keptRecords {
            guard let epoch = KeyEpoch(fileName: name), let record = try? EpochRecord.parse(bytes, as: epoch, hubID: hub.id) else { continue }
            parsed[epoch] = record
        }
        var (ownEpoch, settled) = ownEpochCandidates(parsed).settled { chain(records: parsed, cards: keptCards, ownEpoch: $0) }

        // The records new or changed on the hub, page by page.
        var fetched: [KeyEpoch: (bytes: [UInt8], fingerprint: String)] = [:]
        // Records that waited for their parent: read again once anything new comes, which may be the parent.
        var waited: [HubListing<KeyEpoch>] = []
        let heldBefore = Self.keysDigest(settled.keys)
        try await walk(
            .epoch, name: Self.itemName, list: { after in try await self.epochCall { try await self.hub.epochList(after: after, limit: ListingPage.size) } },
            visit: { page, remembered in
                var items: [HubItem] = []
                var toFetch: [HubListing<KeyEpoch>] = []
                for entry in page {
                    let item = remembered[Self.itemName(entry.name)]
                    if keptRecords[entry.name.fileName] != nil {
                        // Records never change: one that did is not its epoch's any more, and the copy kept stands.
                        if item?.fingerprint != entry.fingerprint {
                            items.append(HubItem(kind: .epoch, name: Self.itemName(entry.name), fingerprint: entry.fingerprint, outcome: .taken))
                            if item != nil {
                                note(epoch: entry.name, "it was changed on the hub after it was written: the record as this journal first read it is kept",
                                     into: &report, leftInPlace)
                            }
                        }
                        continue
                    }
                    if let item, item.fingerprint == entry.fingerprint {
                        if item.outcome == .refused { continue }
                        if item.outcome == .waiting, item.keys == heldBefore {
                            if waited.count < Self.recordsInHand { waited.append(entry) }
                            continue
                        }
                    }
                    toFetch.append(entry)
                }
                try await store.recordHubItems(items, hubID: hub.id)
                for (epoch, read) in try await fetchRecords(toFetch, keys: settled.keys, parsed: parsed, inHand: fetched.count, into: &report, leftInPlace) {
                    parsed[epoch] = read.record
                    fetched[epoch] = (read.bytes, read.fingerprint)
                }
            },
            gone: { names in
                // A record kept here but gone from the hub goes back: another device may need it, and
                // records are written once and never removed by a journal.
                for name in names {
                    guard let epoch = Self.epoch(itemName: name), let bytes = keptRecords[epoch.fileName] else { continue }
                    try? await hub.writeEpochRecord(bytes, as: epoch)
                }
            })
        if !fetched.isEmpty {
            for (epoch, read) in try await fetchRecords(waited, keys: settled.keys, parsed: parsed, inHand: fetched.count, into: &report, leftInPlace) {
                parsed[epoch] = read.record
                fetched[epoch] = (read.bytes, read.fingerprint)
            }
        }

        // The epoch of this device's key, and the chain, with the records read now.
        if !fetched.isEmpty {
            (ownEpoch, settled) = ownEpochCandidates(parsed).settled { chain(records: parsed, cards: keptCards, ownEpoch: $0) }
        }
        // A key that is neither the hub's first nor any record's opens nothing here (a key file replaced).
        if key.check != hub.firstKeyCheck, ownEpochCandidates(parsed).candidates.isEmpty {
            throw SyncError.wrongKey(hub: hub.location, hubID: hub.id)
        }
        // Whether a kept card's device is a member, before any card is read: a card under its id with
        // other keys is refused when it is.
        let members = Membership(chain: settled, cards: keptCards, device: store.deviceID)
        var known: [DeviceID: DeviceCard] = [:]
        for card in keptCards { known[card.device] = card }

        // The cards new or changed on the hub, page by page, opened with the keys held. A card that
        // verifies is kept only when its device may be a member (`mayKeep`): a revoked device can make
        // any number of cards that verify under the keys it kept, and they must cost one reading each,
        // not the journal's room and every sync's time.
        var reading = HubReading()
        var opened = CardsOpened()
        var mayKeep = CardKeeping(
            known: Set(known.keys), named: Self.devicesNamed(chain: settled, cards: keptCards, membership: members), admitting: settled.admitting)
        do {
            let held = Self.keysDigest(settled.keys)
            try await walk(
                .card, name: \.rawValue, list: { after in try await self.cardsOnHub { try await self.hub.cardList(after: after, limit: ListingPage.size) } },
                visit: { page, remembered in
                    let toRead = page.filter { entry in
                        guard entry.name != store.deviceID else { return false }
                        guard let item = remembered[entry.name.rawValue], item.fingerprint == entry.fingerprint else { return true }
                        switch item.outcome {
                        case .refused: return false
                        case .waiting: return item.keys != held
                        // Read again once, after an update, to learn the epoch a card kept before was sealed under.
                        case .taken: return known[entry.name]?.sealedEpoch == nil
                        }
                    }
                    opened.merge(try await openCards(
                        toRead, keys: settled.keys, known: known, members: members, mayKeep: mayKeep, into: &report, leftInPlace))
                },
                gone: { _ in })
            // Keys found through the cards read (a record's maker known only by its card) open more.
            while true {
                let next = chain(records: parsed, cards: Self.latest(keptCards, opened.taken.values.map(\.card)), ownEpoch: ownEpoch)
                let more = next.keys.count > settled.keys.count
                settled = next
                mayKeep.admitting = settled.admitting
                guard more, !opened.waiting.isEmpty else { break }
                let retry = opened.waiting
                opened.waiting = []
                opened.merge(try await openCards(
                    retry, keys: settled.keys, known: known, members: members, mayKeep: mayKeep, into: &report, leftInPlace))
            }
            // Devices a member vouches for, or a record gives the key to, whose cards are not kept here (not
            // members when last read): read again, whatever was remembered of them.
            let latest = Self.latest(keptCards, opened.taken.values.map(\.card))
            let membersNow = Membership(chain: settled, cards: latest, device: store.deviceID)
            mayKeep.named = Self.devicesNamed(chain: settled, cards: latest, membership: membersNow)
            let missing = mayKeep.named.subtracting(latest.map(\.device)).subtracting([store.deviceID]).sorted().prefix(Self.cardsInHand)
            if !missing.isEmpty {
                opened.merge(try await openCards(
                    missing.map { HubListing(name: $0, fingerprint: "") }, keys: settled.keys, known: known, members: members, mayKeep: mayKeep,
                    into: &report, leftInPlace))
            }
        } catch let error as CardsUnreachable {
            reading.unreachable = error
        }
        reading.refused = opened.refused
        self.ownEpoch = ownEpoch
        epochs = settled

        // What came of each record read now.
        let held = Self.keysDigest(epochs.keys)
        var keep: [String: [UInt8]] = [:]
        var items: [HubItem] = []
        // Records a revoked device made with a key it kept can only ever be refused: past a few, they
        // are not kept (each costs every sync's reading of the records).
        var byRevoked: [DeviceID: Int] = [:]
        for (epoch, record) in parsed where fetched[epoch] == nil && epochs.revoked[record.record.maker] != nil {
            byRevoked[record.record.maker, default: 0] += 1
        }
        for (epoch, (bytes, fingerprint)) in fetched.sorted(by: { $0.key < $1.key }) {
            let maker = parsed[epoch]?.record.maker
            if epochs.proved[epoch] != nil, epochs.record(of: epoch) == nil, let maker, epochs.revoked[maker] != nil,
                byRevoked[maker, default: 0] >= Self.recordsOfRevoked
            {
                let reason = "it was made by a device revoked in key epoch \(epochs.revoked[maker]?.by.epoch.description ?? "?"), and more of its "
                    + "records than any hub needs are kept already"
                items.append(HubItem(kind: .epoch, name: Self.itemName(epoch), fingerprint: fingerprint, outcome: .refused, reason: reason))
                note(epoch: epoch, reason, into: &report, leftInPlace)
            } else if epochs.proved[epoch] != nil {
                if let maker, epochs.revoked[maker] != nil { byRevoked[maker, default: 0] += 1 }
                keep[epoch.fileName] = bytes
                items.append(HubItem(kind: .epoch, name: Self.itemName(epoch), fingerprint: fingerprint, outcome: .taken))
            } else if let parent = parsed[epoch]?.record.parent, epochs.keys[parent] != nil {
                let reason = "it was not made with the key of the epoch before it: not by a member of the hub"
                items.append(HubItem(kind: .epoch, name: Self.itemName(epoch), fingerprint: fingerprint, outcome: .refused, reason: reason))
                note(epoch: epoch, reason, into: &report, leftInPlace)
            } else {
                items.append(HubItem(kind: .epoch, name: Self.itemName(epoch), fingerprint: fingerprint, outcome: .waiting, keys: held))
            }
        }
        try await store.keepEpochRecords(keep, hubID: hub.id)
        try await store.recordHubItems(items, hubID: hub.id)
        for (epoch, reason) in epochs.refused { note(epoch: epoch, reason, into: &report, leftInPlace) }

        // The cards taken now: kept, and remembered as read, at the sync's end.
        for (device, (card, fingerprint)) in opened.taken.sorted(by: { $0.key < $1.key }) {
            reading.cards.append(card)
            reading.cardItems.append(HubItem(kind: .card, name: device.rawValue, fingerprint: fingerprint, outcome: .taken))
        }
        membership = Membership(chain: epochs, cards: Self.latest(keptCards, reading.cards), device: store.deviceID)
        return reading
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

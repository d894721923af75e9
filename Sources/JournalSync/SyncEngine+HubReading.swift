import Crypto
import JournalKit

/// What a reading of the hub's cards and key epoch records found, to be kept at the sync's end.
struct HubReading: Sendable {
    /// Other devices' cards read now that verify: later than the ones kept, or the same found anew.
    var cards: [DeviceCard] = []
    /// Cards refused now, by device, with why.
    var refused: [DeviceID: String] = [:]
    /// What each card read now came to, to remember with the cards kept.
    var cardItems: [HubItem] = []
    /// Names of cards remembered that are no longer on the hub.
    var goneCards: [String] = []
    /// Why the cards could not be listed or read, when they could not: the records were read all the
    /// same, with the cards kept.
    var unreachable: CardsUnreachable?
}

extension SyncEngine {
    /// How many cards or records are read from the hub at once.
    static let readingBatch = 64

    /// Reads the hub's key epochs and cards together, each helping to read the other: a card sealed
    /// under a newer key opens once a record gives that key, and a record counts once its maker's card
    /// checks its signature. Only what is new or changed on the hub since the last reading is read
    /// (`sync_hub_items`); records whose proof checked are kept in the journal, and junk (anything
    /// that is no record or card of this hub) is read once, said once, and counted, whatever its name
    /// or number: no amount of it pushes a record or card out of view. Sets `epochs` and `membership`,
    /// and returns the cards read. The records' listing failing ends the sync: without it, which key
    /// seals what is not known; the cards' (`CardsUnreachable`) does not, as cards are what devices
    /// say of themselves.
    func takeUpEpochs(leftInPlace: Set<String>, into report: inout SyncReport) async throws -> HubReading {
        // The records: those kept, and those new on the hub.
        let listedEpochs = try await epochsListed()
        let kept = try await store.epochRecordBytes(hubID: hub.id)
        let epochItems = try await store.hubItems(.epoch, hubID: hub.id)
        var parsed: [KeyEpoch: EpochChain.Parsed] = [:]
        for (name, bytes) in kept {
            guard let epoch = KeyEpoch(fileName: name), let record = try? EpochRecord.parse(bytes, as: epoch, hubID: hub.id) else { continue }
            parsed[epoch] = record
        }
        var newItems: [HubItem] = []
        var fetched: [KeyEpoch: [UInt8]] = [:]
        var waitingRecords: [KeyEpoch: String] = [:]
        var toFetch: [KeyEpoch] = []
        for (epoch, fingerprint) in listedEpochs.sorted(by: { $0.key < $1.key }) {
            let item = epochItems[epoch.fileName]
            if kept[epoch.fileName] != nil {
                // Records never change: one that did is not its epoch's any more, and the copy kept stands.
                if let item, item.fingerprint != fingerprint {
                    newItems.append(HubItem(kind: .epoch, name: epoch.fileName, fingerprint: fingerprint, outcome: .taken))
                    note(epoch, "it was changed on the hub after it was written: the record as this journal first read it is kept", into: &report, leftInPlace)
                }
                continue
            }
            if let item, item.fingerprint == fingerprint {
                if item.outcome == .refused { continue }
                if item.outcome == .waiting, let keys = item.keys {
                    waitingRecords[epoch] = keys
                    continue
                }
            }
            toFetch.append(epoch)
        }
        try await fetchRecords(
            toFetch, fingerprints: listedEpochs, into: &fetched, parsed: &parsed, items: &newItems, report: &report, leftInPlace: leftInPlace)
        // A record kept here but gone from the hub goes back: another device may need it, and records
        // are written once and never removed by a journal.
        for (name, bytes) in kept where KeyEpoch(fileName: name).map({ listedEpochs[$0] == nil }) ?? false {
            if let epoch = KeyEpoch(fileName: name) { try? await hub.writeEpochRecord(bytes, as: epoch) }
        }

        // The cards: those kept, and those new or changed on the hub.
        let keptCards = try await store.deviceCards(hubID: hub.id)
        for card in keptCards { knownNames[card.device] = card.name }
        var reading = HubReading()
        var listedCards: [DeviceID: String] = [:]
        var unreachable: CardsUnreachable?
        do { listedCards = try await cardsListed() } catch let error as CardsUnreachable { unreachable = error }
        let cardItems = try await store.hubItems(.card, hubID: hub.id)
        reading.goneCards = unreachable == nil ? cardItems.keys.filter { listedCards[DeviceID(rawValue: $0)] == nil } : []
        var toRead: [DeviceID] = []
        var waitingCards: [DeviceID: String] = [:]
        for (device, fingerprint) in listedCards.sorted(by: { $0.key < $1.key }) where device != store.deviceID {
            if let item = cardItems[device.rawValue], item.fingerprint == fingerprint {
                if item.outcome == .waiting, let keys = item.keys {
                    waitingCards[device] = keys
                    continue
                }
                if keptCards.contains(where: { $0.device == device && $0.sealedEpoch != nil }) || item.outcome == .refused { continue }
            }
            toRead.append(device)
        }

        // The epoch of this device's key, then the chain, with the cards as they come.
        var (ownEpoch, settled) = ownEpochCandidates(parsed).settled { chain(records: parsed, cards: keptCards, ownEpoch: $0) }
        // Whether a kept card's device is a member, before any card is read: a card under its id with
        // other keys is refused when it is.
        let members = Membership(chain: settled, cards: keptCards, device: store.deviceID)
        var opened = CardsOpened()
        while true {
            // Records and cards that waited for a key now held are read again.
            let held = Self.keysDigest(settled.keys)
            let retryRecords = waitingRecords.filter { $0.value != held }.map(\.key)
            if !retryRecords.isEmpty {
                for epoch in retryRecords { waitingRecords[epoch] = nil }
                try await fetchRecords(
                    retryRecords, fingerprints: listedEpochs, into: &fetched, parsed: &parsed, items: &newItems, report: &report,
                    leftInPlace: leftInPlace)
                (ownEpoch, settled) = ownEpochCandidates(parsed).settled { chain(records: parsed, cards: keptCards + opened.cards, ownEpoch: $0) }
            }
            let retryCards = waitingCards.filter { $0.value != held }.map(\.key)
            for device in retryCards { waitingCards[device] = nil }
            try await openCards(toRead + retryCards, keys: settled.keys, kept: keptCards, members: members, into: &opened)
            let next = chain(records: parsed, cards: keptCards + opened.cards, ownEpoch: ownEpoch)
            let more = next.keys.count > settled.keys.count
            settled = next
            if !more { break }
            // Cards that did not open for want of a key are tried again with the keys found.
            toRead = opened.waiting.keys.sorted()
            opened.waiting = [:]
        }
        self.ownEpoch = ownEpoch
        epochs = settled

        // What came of each record read now.
        let held = Self.keysDigest(epochs.keys)
        var keep: [String: [UInt8]] = [:]
        for (epoch, bytes) in fetched {
            let fingerprint = listedEpochs[epoch] ?? ""
            if epochs.proved[epoch] != nil {
                keep[epoch.fileName] = bytes
                newItems.append(HubItem(kind: .epoch, name: epoch.fileName, fingerprint: fingerprint, outcome: .taken))
            } else if let parent = parsed[epoch]?.record.parent, epochs.keys[parent] != nil {
                let reason = "it was not made with the key of the epoch before it: not by a member of the hub"
                newItems.append(HubItem(kind: .epoch, name: epoch.fileName, fingerprint: fingerprint, outcome: .refused, reason: reason))
                note(epoch, reason, into: &report, leftInPlace)
            } else {
                newItems.append(HubItem(kind: .epoch, name: epoch.fileName, fingerprint: fingerprint, outcome: .waiting, keys: held))
            }
        }
        try await store.keepEpochRecords(keep, hubID: hub.id)
        try await store.recordHubItems(
            newItems, forgetting: epochItems.keys.filter { KeyEpoch(fileName: $0).map { listedEpochs[$0] == nil } ?? true }, of: .epoch, hubID: hub.id)
        for (epoch, reason) in epochs.refused { note(epoch, reason, into: &report, leftInPlace) }

        // What came of each card read now: remembered with the cards, at the sync's end.
        for (device, card) in opened.taken {
            reading.cards.append(card)
            reading.cardItems.append(HubItem(kind: .card, name: device.rawValue, fingerprint: listedCards[device] ?? "", outcome: .taken))
        }
        for device in opened.unchanged {
            reading.cardItems.append(HubItem(kind: .card, name: device.rawValue, fingerprint: listedCards[device] ?? "", outcome: .taken))
        }
        for (device, reason) in opened.refused {
            reading.refused[device] = reason
            reading.cardItems.append(HubItem(kind: .card, name: device.rawValue, fingerprint: listedCards[device] ?? "", outcome: .refused, reason: reason))
        }
        for (device, reason) in opened.waiting {
            reading.cardItems.append(HubItem(
                kind: .card, name: device.rawValue, fingerprint: listedCards[device] ?? "", outcome: .waiting, reason: reason, keys: held))
        }
        membership = Membership(chain: epochs, cards: Self.latest(keptCards, reading.cards), device: store.deviceID)
        reading.unreachable = unreachable
        return reading
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

    /// The chain `records` make with the signing keys of `cards`, for this device holding its key as the
    /// key of `ownEpoch`.
    private func chain(records: [KeyEpoch: EpochChain.Parsed], cards: [DeviceCard], ownEpoch: KeyEpoch) -> EpochChain {
        var signers: [DeviceID: [UInt8]] = [store.deviceID: deviceKeys.publicKeys.signing]
        for card in cards where card.device != store.deviceID { signers[card.device] = card.signingKey }
        return EpochChain(
            records: records, own: key, ownEpoch: ownEpoch, firstKeyCheck: hub.firstKeyCheck, signers: signers, device: store.deviceID,
            deviceKeys: deviceKeys, hubID: hub.id)
    }

    /// The epochs this device's key may be the key of (the first record that can be its epoch and is
    /// valid; one a holder of an older key made with the same check is not): with none valid, the first
    /// that can be, so that a record of it gone or altered is said as such.
    private func ownEpochCandidates(_ records: [KeyEpoch: EpochChain.Parsed]) -> OwnEpochCandidates {
        OwnEpochCandidates(candidates: EpochRecord.epochs(ofKey: key, among: records, hubID: hub.id, firstKeyCheck: hub.firstKeyCheck))
    }

    /// Reads and parses the records of `epochs`: those that parse join `parsed` (their bytes kept in
    /// `fetched` until their proof is known); the others are refused, said once and remembered with the
    /// fingerprint the listing gave them (`fingerprints`).
    private func fetchRecords(
        _ epochs: [KeyEpoch], fingerprints: [KeyEpoch: String], into fetched: inout [KeyEpoch: [UInt8]],
        parsed: inout [KeyEpoch: EpochChain.Parsed], items: inout [HubItem], report: inout SyncReport, leftInPlace: Set<String>
    ) async throws {
        for start in stride(from: 0, to: epochs.count, by: Self.readingBatch) {
            let batch = Array(epochs[start..<min(start + Self.readingBatch, epochs.count)])
            let read = try await epochCall { try await hub.epochRecords(batch) }
            for epoch in batch {
                guard let result = read[epoch] else { continue }
                do {
                    let bytes = try result.get()
                    parsed[epoch] = try EpochRecord.parse(bytes, as: epoch, hubID: hub.id)
                    fetched[epoch] = bytes
                } catch {
                    let reason = (error as? CardError)?.description ?? failureClause(error)
                    items.append(HubItem(kind: .epoch, name: epoch.fileName, fingerprint: fingerprints[epoch] ?? "", outcome: .refused, reason: reason))
                    note(epoch, reason, into: &report, leftInPlace)
                }
            }
        }
    }

    /// Every record the hub lists, with its fingerprint, page by page.
    private func epochsListed() async throws -> [KeyEpoch: String] {
        var listed: [KeyEpoch: String] = [:]
        var after: KeyEpoch?
        while true {
            let page = try await epochCall { try await hub.epochList(after: after, limit: Self.listingPage) }
            for entry in page { listed[entry.name] = entry.fingerprint }
            guard let last = page.last, page.count >= Self.listingPage else { break }
            after = last.name
        }
        return listed
    }

    /// Every card the hub lists, with its fingerprint, page by page.
    private func cardsListed() async throws -> [DeviceID: String] {
        var listed: [DeviceID: String] = [:]
        var after: DeviceID?
        while true {
            let page = try await cardsOnHub { try await hub.cardList(after: after, limit: Self.listingPage) }
            for entry in page { listed[entry.name] = entry.fingerprint }
            guard let last = page.last, page.count >= Self.listingPage else { break }
            after = last.name
        }
        return listed
    }

    /// How many names a page of the hub's listings holds.
    static var listingPage: Int { 1000 }

    /// Opens the cards of `devices` with `keys`, in batches, into `opened`; `members` says whose kept card
    /// binds its device to its keys.
    private func openCards(
        _ devices: [DeviceID], keys: [KeyEpoch: SyncKey], kept: [DeviceCard], members: Membership, into opened: inout CardsOpened
    ) async throws {
        var known: [DeviceID: DeviceCard] = [:]
        for card in kept { known[card.device] = card }
        for start in stride(from: 0, to: devices.count, by: Self.readingBatch) {
            let batch = Array(devices[start..<min(start + Self.readingBatch, devices.count)])
            let read = try await cardsOnHub { try await hub.cards(of: batch) }
            for device in batch {
                guard let result = read[device] else { continue }
                opened.record(device, openCard(result, of: device, keys: keys, known: known[device], bound: members.admits(device)))
            }
        }
    }

    /// What the card `read` of `device` comes to, opened with `keys`, against the card kept of it
    /// (`known`), whose keys bind the device when it is a member (`bound`): a card a revoked device
    /// planted under the id of a device not yet seen here does not keep the real one out.
    private func openCard(
        _ read: Result<[UInt8], SyncError>, of device: DeviceID, keys: [KeyEpoch: SyncKey], known: DeviceCard?, bound: Bool
    ) -> CardOpening {
        do {
            let sealed = try read.get()
            if let epoch = CardSeal.epoch(of: sealed), keys[epoch] == nil {
                return .waiting("it is sealed under key epoch \(epoch), whose key this device does not have")
            }
            var card = try CardSeal.open(sealed, keys: { keys[$0] }, hubID: hub.id, device: device)
            card.sealedEpoch = CardSeal.epoch(of: sealed)?.text
            if let first = known, first.publicKeys != card.publicKeys, bound {
                throw CardError("it names other keys than the ones this device first showed, so it was not written by that device")
            }
            // Only a card written later than the one kept counts (a replayed card changes nothing),
            // and from where its device signs never goes once known, as the journal keeps it.
            if let first = known, first.publicKeys == card.publicKeys, card.writtenAt < first.writtenAt { return .unchanged }
            if let kept = known?.signedFrom, known?.publicKeys == card.publicKeys { card.signedFrom = min(kept, card.signedFrom ?? kept) }
            return .taken(card)
        } catch {
            return .refused((error as? CardError)?.description ?? failureClause(error))
        }
    }

    /// Says once that the record of `epoch` is not taken, and why.
    private func note(_ epoch: KeyEpoch, _ reason: String, into report: inout SyncReport, _ leftInPlace: Set<String>) {
        let name = "epochs/" + epoch.fileName
        guard !leftInPlace.contains(store.deviceID.rawValue + "/" + name), !report.setAside.contains(where: { $0.name == name }) else { return }
        report.setAside.append(SetAsideFile(device: store.deviceID, name: name, reason: reason, outcome: .passedOver, at: report.at))
    }

    /// Calls the hub for its records: a failure other than the hub out of reach is said as the records'.
    private func epochCall<T>(_ call: () async throws -> T) async throws -> T {
        do { return try await call() } catch is CancellationError { throw CancellationError() } catch let error as SyncError {
            if case .hubUnavailable = error { throw error }
            throw SyncError.epochsUnreadable(hub: hub.location, reason: failureClause(error))
        } catch {
            throw SyncError.epochsUnreadable(hub: hub.location, reason: failureClause(error))
        }
    }
}

/// What opening one card came to.
enum CardOpening {
    /// It verifies: kept at the sync's end.
    case taken(DeviceCard)
    /// The card kept already, or an older one of it: nothing to keep.
    case unchanged
    /// It is not a card of this hub's, or not its device's.
    case refused(String)
    /// Sealed under a key this device does not hold: read again once it holds more.
    case waiting(String)
}

/// The cards a reading opened, by what came of each.
struct CardsOpened {
    var taken: [DeviceID: DeviceCard] = [:]
    /// Read, and no later than the card kept.
    var unchanged: Set<DeviceID> = []
    var refused: [DeviceID: String] = [:]
    var waiting: [DeviceID: String] = [:]

    var cards: [DeviceCard] { taken.values.sorted { $0.device < $1.device } }

    mutating func record(_ device: DeviceID, _ opening: CardOpening) {
        switch opening {
        case .taken(let card):
            taken[device] = card
            refused[device] = nil
        case .unchanged: unchanged.insert(device)
        case .refused(let reason): refused[device] = reason
        case .waiting(let reason): waiting[device] = reason
        }
    }
}

/// The epochs this device's key may be the key of, in order.
struct OwnEpochCandidates {
    let candidates: [KeyEpoch]

    /// The first candidate, or the first epoch when there is none.
    var epoch: KeyEpoch { candidates.first ?? .first }

    /// The first candidate whose record the chain `make` builds for it finds valid, with that chain;
    /// with none valid, the first (its record gone or altered is then said as such).
    func settled(_ make: (KeyEpoch) -> EpochChain) -> (KeyEpoch, EpochChain) {
        let first = make(epoch)
        guard candidates.count > 1, first.record(of: epoch) == nil else { return (epoch, first) }
        for candidate in candidates.dropFirst() {
            let tried = make(candidate)
            if tried.record(of: candidate) != nil { return (candidate, tried) }
        }
        return (epoch, first)
    }
}

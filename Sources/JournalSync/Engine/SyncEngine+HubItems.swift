import JournalKit

/// The hub's key epoch records and cards, read page by page and batch by batch beside what the journal
/// remembers of them (`sync_hub_items`), each refusal said once: what `takeUpEpochs` reads with.
extension SyncEngine {
    /// Reads and parses the records of `entries`: returns those that may hold (made with their parent's
    /// key, or whose parent's key is not held yet), to be kept in hand until the chain says, at most
    /// `recordsInHand` with the `inHand` already held; what came of the others is remembered now, and
    /// a refusal said once. `keys` and `parsed` tell a parent's key, known to be its when it matches
    /// that epoch's check (before the records are read, this device's key may be taken for the first
    /// one's).
    func fetchRecords(
        _ entries: [HubListing<KeyEpoch>], keys: [KeyEpoch: SyncKey], parsed: [KeyEpoch: EpochChain.Parsed], inHand: Int,
        into report: inout SyncReport, _ leftInPlace: Set<HubEntry>
    ) async throws -> [KeyEpoch: (record: EpochChain.Parsed, bytes: [UInt8], fingerprint: String)] {
        let held = Self.keysDigest(keys)
        var kept: [KeyEpoch: (record: EpochChain.Parsed, bytes: [UInt8], fingerprint: String)] = [:]
        var items: [HubItem] = []
        for start in stride(from: 0, to: entries.count, by: Self.readingBatch) {
            let batch = Array(entries[start..<min(start + Self.readingBatch, entries.count)])
            let read = try await epochCall { try await hub.epochRecords(batch.map(\.name)) }
            for entry in batch {
                guard let result = read[entry.name] else { continue }
                let name = Self.itemName(entry.name)
                do {
                    let bytes = try result.get()
                    let record = try EpochRecord.parse(bytes, as: entry.name, hubID: hub.id)
                    let parent = record.record.parent
                    let parentKey = keys[parent].flatMap { key in
                        key.check == (parent == .first ? hub.firstKeyCheck : parsed[parent]?.record.keyCheck) ? key : nil
                    }
                    if let parentKey, !record.signed.isProved(by: parentKey) {
                        let reason = "it was not made with the key of the epoch before it: not by a member of the hub"
                        items.append(HubItem(kind: .epoch, name: name, fingerprint: entry.fingerprint, outcome: .refused, reason: reason))
                        note(epoch: entry.name, reason, into: &report, leftInPlace)
                    } else if parentKey != nil || inHand + kept.count < Self.recordsInHand {
                        kept[entry.name] = (record, bytes, entry.fingerprint)
                    } else {
                        items.append(HubItem(kind: .epoch, name: name, fingerprint: entry.fingerprint, outcome: .waiting, keys: held))
                    }
                } catch {
                    let reason = (error as? CardError)?.description ?? failureClause(error)
                    items.append(HubItem(kind: .epoch, name: name, fingerprint: entry.fingerprint, outcome: .refused, reason: reason))
                    note(epoch: entry.name, reason, into: &report, leftInPlace)
                }
            }
        }
        try await store.recordHubItems(items, hubID: hub.id)
        return kept
    }

    /// Opens the cards of `entries` with `keys` (`known`: the cards kept, `members`: whose kept card binds
    /// its device to its keys): those taken are returned, to be kept at the sync's end; what came of the
    /// others is remembered now, and a refusal said once.
    func openCards(
        _ entries: [HubListing<DeviceID>], keys: [KeyEpoch: SyncKey], known: [DeviceID: DeviceCard], members: Membership,
        mayKeep: CardKeeping, into report: inout SyncReport, _ leftInPlace: Set<HubEntry>
    ) async throws -> CardsOpened {
        let held = Self.keysDigest(keys)
        var opened = CardsOpened()
        for start in stride(from: 0, to: entries.count, by: Self.readingBatch) {
            let batch = Array(entries[start..<min(start + Self.readingBatch, entries.count)])
            let read = try await cardsOnHub { try await hub.cards(of: batch.map(\.name)) }
            var items: [HubItem] = []
            for entry in batch {
                guard let result = read[entry.name] else { continue }
                switch openCard(result, of: entry.name, keys: keys, known: known[entry.name], bound: members.admits(entry.name)) {
                case .taken(let card) where mayKeep.allows(card):
                    opened.taken[entry.name] = (card, entry.fingerprint)
                case .taken:
                    let reason = notMemberReason(entry.name)
                    opened.refused[entry.name] = reason
                    items.append(HubItem(kind: .card, name: entry.name.rawValue, fingerprint: entry.fingerprint, outcome: .refused, reason: reason))
                    note(card: entry.name, reason, into: &report, leftInPlace)
                case .unchanged:
                    items.append(HubItem(kind: .card, name: entry.name.rawValue, fingerprint: entry.fingerprint, outcome: .taken))
                case .refused(let reason):
                    opened.refused[entry.name] = reason
                    items.append(HubItem(kind: .card, name: entry.name.rawValue, fingerprint: entry.fingerprint, outcome: .refused, reason: reason))
                    note(card: entry.name, reason, into: &report, leftInPlace)
                case .waiting(let reason):
                    items.append(HubItem(
                        kind: .card, name: entry.name.rawValue, fingerprint: entry.fingerprint, outcome: .waiting, reason: reason, keys: held))
                    opened.waiting.append(entry)
                }
            }
            try await store.recordHubItems(items, hubID: hub.id)
        }
        return opened
    }

    /// Walks the hub's listing of `kind` page by page beside what the journal remembers of it, in the
    /// same order (`name` gives an item's name, whose order as text is the listing's): `visit` gets each
    /// page with what is remembered of the names it spans, and `gone` the names remembered there that
    /// the hub no longer lists, which are then forgotten. A page at a time: however many names the hub
    /// lists, a reading holds one page of them.
    func walk<Name: Sendable>(
        _ kind: HubItem.Kind, name: (Name) -> String, list: (Name?) async throws -> [HubListing<Name>],
        visit: ([HubListing<Name>], [String: HubItem]) async throws -> Void, gone: ([String]) async throws -> Void
    ) async throws {
        var after: Name?
        while true {
            let page = try await list(after)
            let last = page.count >= ListingPage.size ? page.last : nil
            let remembered = try await store.hubItems(
                kind, hubID: hub.id, after: after.map(name), through: last.map { name($0.name) })
            let listed = Set(page.map { name($0.name) })
            let missing = remembered.keys.filter { !listed.contains($0) }.sorted()
            try await visit(page, remembered)
            if !missing.isEmpty {
                try await gone(missing)
                try await store.recordHubItems([], forgetting: missing, of: kind, hubID: hub.id)
            }
            guard let last else { return }
            after = last.name
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
    func note(epoch: KeyEpoch, _ reason: String, into report: inout SyncReport, _ leftInPlace: Set<HubEntry>) {
        note(SetAsideFile(device: store.deviceID, name: "epochs/" + epoch.fileName, reason: reason, outcome: .passedOver, at: report.at),
             into: &report, leftInPlace)
    }

    /// Says once that `device`'s card is not taken, and why.
    func note(card device: DeviceID, _ reason: String, into report: inout SyncReport, _ leftInPlace: Set<HubEntry>) {
        note(SetAsideFile(device: device, name: "card", reason: reason, outcome: .passedOver, at: report.at), into: &report, leftInPlace)
    }

    /// Says `file` once: the first `namedRefusals` of a sync by name, the rest counted.
    private func note(_ file: SetAsideFile, into report: inout SyncReport, _ leftInPlace: Set<HubEntry>) {
        guard !leftInPlace.contains(file.entry),
            !report.mentions(file.entry)
        else { return }
        if report.setAside.count < Self.namedRefusals { report.setAside.append(file) } else { report.moreSetAside += 1 }
    }

    /// Calls the hub for its records: a failure other than the hub out of reach is said as the records'.
    func epochCall<T>(_ call: () async throws -> T) async throws -> T {
        do { return try await call() } catch is CancellationError { throw CancellationError() } catch let error as SyncError {
            if error.hubCondition == .unreachable { throw error }
            throw SyncError.epochsUnreadable(hub: hub.location, reason: failureClause(error))
        } catch {
            throw SyncError.epochsUnreadable(hub: hub.location, reason: failureClause(error))
        }
    }
}

import JournalKit

extension SyncEngine {
    /// A card whose only news is when its device last synced is written again after this long: a
    /// daemon syncing at every add, or every few minutes, writes its card to the hub (which a sync tool
    /// then copies everywhere) at most this often. A device is called silent after a day.
    static let cardRefreshInterval: Int64 = 10 * 60_000

    /// The most cards a sync reads: a member can write cards under any number of made-up ids.
    static let maximumCards = 1000

    /// What a sync does with the cards at each of its moments.
    enum CardStep {
        /// Before anything else: every other device's card, so that its segments' signatures can be checked.
        case read
        /// Before publishing: this device's first card from a journal that signs, saying from which
        /// position it signs everything, unless the hub has it already.
        case announceSigning
        /// After the pull: this device's card, when it says something new.
        case write
    }

    /// Reads every other device's card and keeps, for each, the latest that verifies, or writes this
    /// device's own when it says something new. Refused cards are said once, like files passed over.
    /// Cards are what devices say of themselves, not the journal: a card that cannot be read or written
    /// (another member of a shared folder made `cards` something else) is said, and the sync that moved
    /// the drinks stands.
    func exchangeCards(_ step: CardStep, leftInPlace: Set<String>, into report: inout SyncReport) async throws {
        do {
            switch step {
            case .read:
                // Cards that cannot be read are said once, below; the epochs are taken up all the same,
                // with the cards this journal keeps.
                var onHub: [DeviceID: Result<[UInt8], SyncError>] = [:]
                var unreachable: CardsUnreachable?
                do { onHub = try await cardsOnHub { try await hub.cards() } } catch let error as CardsUnreachable { unreachable = error }
                // Kept in the journal at the sync's end: until the pull, a sync with nothing new writes nothing.
                let read = try await takeUpEpochs(cardsOnHub: onHub, leftInPlace: leftInPlace, into: &report)
                cardsRead = read.cards
                for (device, reason) in read.refused where !leftInPlace.contains(device.rawValue + "/card") {
                    report.setAside.append(SetAsideFile(device: device, name: "card", reason: reason, outcome: .passedOver, at: report.at))
                }
                if let unreachable { throw unreachable }
            case .announceSigning:
                let own = try await store.deviceCard(of: store.deviceID, hubID: hub.id)
                guard own?.signedFrom == nil else { return }
                // Past everything this device ever published unsigned, a segment left by a crash included.
                let published = max(
                    try await store.hub()?.publishedThrough ?? 0, try await store.publishedSegments(hubID: hub.id).map(\.range.last).max() ?? 0)
                try await writeOwnCard(previous: own, at: report.at, published: false, synced: false, signedFrom: published + 1)
            case .write:
                try await store.keepDeviceCards(cardsRead, hubID: hub.id)
                cardsRead = []
                let own = try await store.deviceCard(of: store.deviceID, hubID: hub.id)
                try await writeOwnCard(previous: own, at: report.at, published: report.segmentsWritten > 0, synced: true)
            }
        } catch let unreachable as CardsUnreachable {
            // The cards' files or rows failed (a server's error types too): said once, and the sync stands.
            let name = store.deviceID.rawValue + ".card"
            if !leftInPlace.contains(store.deviceID.rawValue + "/" + name),
                !report.setAside.contains(where: { $0.device == store.deviceID && $0.name == name })
            {
                report.setAside.append(SetAsideFile(
                    device: store.deviceID, name: name, reason: "the cards could not be read or written (\(failureClause(unreachable.cause)))",
                    outcome: .left, at: report.at))
            }
        }
    }

    /// Calls the hub for its cards: a failure is the cards' (`CardsUnreachable`), except a hub out of
    /// reach or a cancelled sync, which end the sync as anywhere else.
    private func cardsOnHub<T>(_ call: () async throws -> T) async throws -> T {
        do { return try await call() } catch is CancellationError { throw CancellationError() } catch let error as SyncError {
            if case .hubUnavailable = error { throw error }
            throw CardsUnreachable(cause: error)
        } catch {
            throw CardsUnreachable(cause: error)
        }
    }

    /// Refuses to sync when this device's keys are not the ones its card showed the hub: checked before
    /// anything is published, so that nothing goes up that the others would take for a stranger's.
    func checkOwnKeys() async throws {
        try checkKeys(of: try await store.deviceCard(of: store.deviceID, hubID: hub.id))
    }

    /// Refuses this device's keys when they are not the ones its card `own` showed.
    private func checkKeys(of own: DeviceCard?) throws(SyncError) {
        if let own, own.publicKeys != deviceKeys.publicKeys { throw SyncError.deviceKeysReplaced(path: deviceKeys.path) }
    }

    /// Reads every other device's card from the hub and keeps, for each, the latest that verifies. A
    /// card that does not verify, or names other keys than its device first showed (someone holding
    /// the hub's key speaking as that device), is refused on its own and never kept: returned, by
    /// device, with why.
    public func readCards() async throws -> [DeviceID: String] {
        var report = SyncReport()
        let read = try await takeUpEpochs(cardsOnHub: try await cardsOnHub { try await hub.cards() }, leftInPlace: [], into: &report)
        try await store.keepDeviceCards(read.cards, hubID: hub.id)
        return read.refused
    }

    /// Every other device's card among `cards` that verifies, opened with `keys` (the keys this device
    /// holds, by epoch), and why each other was refused.
    func verifiedCards(
        _ cards: [DeviceID: Result<[UInt8], SyncError>], keys: [KeyEpoch: SyncKey]
    ) async throws -> (cards: [DeviceCard], refused: [DeviceID: String]) {
        var known: [DeviceID: DeviceCard] = [:]
        for card in try await store.deviceCards(hubID: hub.id) { known[card.device] = card }
        var verified: [DeviceCard] = []
        var refused: [DeviceID: String] = [:]
        for (device, read) in cards.sorted(by: { $0.key < $1.key }).prefix(Self.maximumCards) where device != store.deviceID {
            do {
                let card = try CardSeal.open(try read.get(), keys: { keys[$0] }, hubID: hub.id, device: device)
                if let first = known[device], first.publicKeys != card.publicKeys {
                    throw CardError("it names other keys than the ones this device first showed, so it was not written by that device")
                }
                // Only a card written later than the one kept counts (a replayed card changes nothing),
                // and from where its device signs never goes once known, as the journal keeps it.
                if let first = known[device], card.writtenAt <= first.writtenAt { continue }
                var later = card
                if let kept = known[device]?.signedFrom { later.signedFrom = min(kept, card.signedFrom ?? kept) }
                verified.append(later)
            } catch {
                refused[device] = (error as? CardError)?.description ?? failureClause(error)
            }
        }
        return (verified, refused)
    }

    /// The card that tells `device`'s signatures: the one this sync read, or the one kept.
    func card(of device: DeviceID) async throws -> DeviceCard? {
        if let read = cardsRead.first(where: { $0.device == device }) { return read }
        return try await store.deviceCard(of: device, hubID: hub.id)
    }

    /// Writes this device's card, unless the one written last says the same and is recent. `name`
    /// replaces the name the card had (the host name, for a device's first card); `signedFrom` says
    /// from where this device signs, where the card before did not.
    func writeOwnCard(
        previous: DeviceCard?, at now: Timestamp, published: Bool, synced: Bool, name: DeviceName? = nil, signedFrom: Int64? = nil
    ) async throws {
        try checkKeys(of: previous)
        let keys = deviceKeys.publicKeys
        let card = DeviceCard(
            device: store.deviceID, name: name?.text ?? previous?.name ?? DeviceName.host(fallback: store.deviceID).text,
            agreementKey: keys.agreement, signingKey: keys.signing, epoch: Int64(epochs.current.number),
            // Later than the card before it, whatever the clock did: the later card is the one kept.
            writtenAt: Timestamp(milliseconds: max(now.milliseconds, (previous?.writtenAt.milliseconds ?? 0) + 1)),
            publishedAt: published ? now : previous?.publishedAt, syncedAt: synced ? now : previous?.syncedAt,
            signedFrom: previous?.signedFrom ?? signedFrom)
        if let previous, previous.name == card.name, previous.signedFrom == card.signedFrom, previous.epoch == card.epoch,
            previous.publishedAt == card.publishedAt,
            // Either way: a clock stepped back must not keep the card from being refreshed for good.
            let synced = previous.syncedAt, abs(now.milliseconds - synced.milliseconds) < Self.cardRefreshInterval
        {
            return
        }
        let (epoch, key) = try sealingKey()
        let sealed = try CardSeal.seal(card, keys: deviceKeys, epoch: epoch, key: key, hubID: hub.id)
        try await cardsOnHub { try await hub.writeCard(sealed, of: store.deviceID) }
        try await store.keepDeviceCard(card, hubID: hub.id)
    }

    /// Renames this device: its card, on the hub and here, says `name` from now on. Refused when another
    /// device of the hub is known by that name already.
    public func rename(to name: DeviceName) async throws {
        let lock = try FileLock.sync(databasePath: store.path)
        defer { withExtendedLifetime(lock) {} }
        let cards = try await store.deviceCards(hubID: hub.id)
        if let other = cards.first(where: { $0.device != store.deviceID && $0.name.lowercased() == name.text.lowercased() }) {
            throw SyncError.deviceNameTaken(name: name.text, by: other.device)
        }
        // Sealed only under a key the hub's members alone hold, as a sync seals.
        let now = store.clock.now()
        try await settleKey(cards: cards, at: now)
        let previous = try await store.deviceCard(of: store.deviceID, hubID: hub.id)
        try await writeOwnCard(previous: previous, at: now, published: false, synced: false, name: name)
    }
}

/// The hub's cards could not be read or written: `cause` says why.
struct CardsUnreachable: Error {
    let cause: any Error
}

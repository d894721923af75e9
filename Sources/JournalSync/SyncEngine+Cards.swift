import JournalKit

extension SyncEngine {
    /// A card whose only news is when its device last synced is written again after this long: a
    /// daemon syncing at every add, or every few minutes, writes its card to the hub (which a sync tool
    /// then copies everywhere) at most this often. A device is called silent after a day.
    static let cardRefreshInterval: Int64 = 10 * 60_000

    /// The most cards a sync reads: a member can write cards under any number of made-up ids.
    static let maximumCards = 1000

    /// Reads every other device's card and keeps, for each, the latest that verifies; then writes this
    /// device's own when it says something new. Refused cards are said once, like files passed over.
    /// Cards are what devices say of themselves, not the journal: a card that cannot be read or written
    /// (another member of a shared folder made `cards` something else) is said, and the sync that moved
    /// the drinks stands.
    func exchangeCards(leftInPlace: Set<String>, into report: inout SyncReport) async throws {
        do {
            for (device, reason) in try await readCards() where !leftInPlace.contains(device.rawValue + "/card") {
                report.setAside.append(SetAsideFile(device: device, name: "card", reason: reason, outcome: .passedOver, at: report.at))
            }
            let own = try await store.deviceCards(hubID: hub.id).first { $0.device == store.deviceID }
            try await writeOwnCard(previous: own, at: report.at, published: report.segmentsWritten > 0, synced: true)
        } catch is CancellationError {
            throw CancellationError()
        } catch SyncError.deviceKeysReplaced(let path) {
            throw SyncError.deviceKeysReplaced(path: path)
        } catch {
            // Any failure of the cards' files or rows (a server's, too): said, and the sync stands.
            let name = store.deviceID.rawValue + ".card"
            if !leftInPlace.contains(store.deviceID.rawValue + "/" + name) {
                report.setAside.append(SetAsideFile(
                    device: store.deviceID, name: name, reason: "the cards could not be read or written (\(failureMessage(error)))",
                    outcome: .left, at: report.at))
            }
        }
    }

    /// Refuses to sync when this device's keys are not the ones its card showed the hub: checked before
    /// anything is published, so that nothing goes up that the others would take for a stranger's.
    func checkOwnKeys() async throws {
        try checkKeys(of: try await store.deviceCards(hubID: hub.id).first { $0.device == store.deviceID })
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
        var known: [DeviceID: DeviceCard] = [:]
        for card in try await store.deviceCards(hubID: hub.id) { known[card.device] = card }
        var refused: [DeviceID: String] = [:]
        for (device, read) in try await hub.cards().sorted(by: { $0.key < $1.key }).prefix(Self.maximumCards) where device != store.deviceID {
            do {
                let card = try CardSeal.open(try read.get(), key: key, hubID: hub.id, device: device)
                if let first = known[device], first.publicKeys != card.publicKeys {
                    throw CardError("it names other keys than the ones this device first showed, so it was not written by that device")
                }
                try await store.keepDeviceCard(card, hubID: hub.id)
            } catch {
                refused[device] = (error as? CardError)?.description ?? failureMessage(error)
            }
        }
        return refused
    }

    /// Writes this device's card, unless the one written last says the same and is recent. `name`
    /// replaces the name the card had (the host name, for a device's first card).
    func writeOwnCard(previous: DeviceCard?, at now: Timestamp, published: Bool, synced: Bool, name: DeviceName? = nil) async throws {
        try checkKeys(of: previous)
        let keys = deviceKeys.publicKeys
        let card = DeviceCard(
            device: store.deviceID, name: name?.text ?? previous?.name ?? DeviceName.host(fallback: store.deviceID).text,
            agreementKey: keys.agreement, signingKey: keys.signing, epoch: 0,
            // Later than the card before it, whatever the clock did: the later card is the one kept.
            writtenAt: Timestamp(milliseconds: max(now.milliseconds, (previous?.writtenAt.milliseconds ?? 0) + 1)),
            publishedAt: published ? now : previous?.publishedAt, syncedAt: synced ? now : previous?.syncedAt)
        if let previous, previous.name == card.name, previous.epoch == card.epoch, previous.publishedAt == card.publishedAt,
            // Either way: a clock stepped back must not keep the card from being refreshed for good.
            let synced = previous.syncedAt, abs(now.milliseconds - synced.milliseconds) < Self.cardRefreshInterval
        {
            return
        }
        try await hub.writeCard(try CardSeal.seal(card, keys: deviceKeys, key: key, hubID: hub.id), of: store.deviceID)
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
        let previous = cards.first { $0.device == store.deviceID }
        try await writeOwnCard(previous: previous, at: store.clock.now(), published: false, synced: false, name: name)
    }
}

import JournalKit

extension SyncEngine {
    /// A card whose only news is when its device last synced is written again after this long: a
    /// daemon syncing at every add then writes the hub's card once a minute, not at every drink.
    static let cardRefreshInterval: Int64 = 60_000

    /// Reads every other device's card and keeps, for each, the latest that verifies; then writes this
    /// device's own when it says something new. Refused cards are said once, like files passed over.
    func exchangeCards(leftInPlace: Set<String>, into report: inout SyncReport) async throws {
        for (device, reason) in try await readCards() where !leftInPlace.contains(device.rawValue + "/card") {
            report.setAside.append(SetAsideFile(device: device, name: "card", reason: reason, outcome: .passedOver, at: report.at))
        }
        let own = try await store.deviceCards(hubID: hub.id).first { $0.device == store.deviceID }
        try await writeOwnCard(previous: own, at: report.at, published: report.segmentsWritten > 0, synced: true)
    }

    /// Reads every other device's card from the hub and keeps, for each, the latest that verifies. A
    /// card that does not verify, or names other keys than its device first showed (someone holding
    /// the hub's key speaking as that device), is refused on its own and never kept: returned, by
    /// device, with why.
    public func readCards() async throws -> [DeviceID: String] {
        var known: [DeviceID: DeviceCard] = [:]
        for card in try await store.deviceCards(hubID: hub.id) { known[card.device] = card }
        var refused: [DeviceID: String] = [:]
        for (device, read) in try await hub.cards() where device != store.deviceID {
            do {
                let card = try CardSeal.open(try read.get(), key: key, hubID: hub.id, device: device)
                if let first = known[device], first.agreementKey != card.agreementKey || first.signingKey != card.signingKey {
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
        let keys = deviceKeys.publicKeys
        if let previous, previous.agreementKey != keys.agreement || previous.signingKey != keys.signing {
            throw SyncError.deviceKeysReplaced(path: deviceKeys.path)
        }
        let card = DeviceCard(
            device: store.deviceID, name: name?.text ?? previous?.name ?? DeviceName.host(fallback: store.deviceID).text,
            agreementKey: keys.agreement, signingKey: keys.signing, epoch: 0,
            // Later than the card before it, whatever the clock did: the later card is the one kept.
            writtenAt: Timestamp(milliseconds: max(now.milliseconds, (previous?.writtenAt.milliseconds ?? 0) + 1)),
            publishedAt: published ? now : previous?.publishedAt, syncedAt: synced ? now : previous?.syncedAt)
        if let previous, previous.name == card.name, previous.epoch == card.epoch, previous.publishedAt == card.publishedAt,
            let synced = previous.syncedAt, now.milliseconds - synced.milliseconds < Self.cardRefreshInterval
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

import JournalKit

extension SyncEngine {
    /// Reads the hub's key epochs and `cardsOnHub` together, each helping to read the other: a card
    /// sealed under a newer key opens once a record gives that key, and a record counts once its
    /// maker's card checks its signature. Sets `epochs`, keeps the newest key held (`keyPath`), and
    /// returns the cards that verify and why the others were refused. A record that cannot be used is
    /// said once, as a refused card is; the records' listing failing ends the sync: without it, which
    /// key seals what is not known.
    func takeUpEpochs(
        cardsOnHub: [DeviceID: Result<[UInt8], SyncError>], leftInPlace: Set<String>, into report: inout SyncReport
    ) async throws -> (cards: [DeviceCard], refused: [DeviceID: String]) {
        var parsed: [KeyEpoch: (record: EpochRecord, signed: EpochRecord.Signed)] = [:]
        var refused: [KeyEpoch: String] = [:]
        for (epoch, read) in try await epochRecordsOnHub().sorted(by: { $0.key < $1.key }).prefix(EpochRecord.maximumRecords) {
            do { parsed[epoch] = try EpochRecord.parse(try read.get(), as: epoch, hubID: hub.id) } catch {
                refused[epoch] = (error as? CardError)?.description ?? failureClause(error)
            }
        }
        let kept = try await store.deviceCards(hubID: hub.id)
        for card in kept { knownNames[card.device] = card.name }
        func chain(with cards: [DeviceCard], ownEpoch: KeyEpoch) -> EpochChain {
            var signers: [DeviceID: [UInt8]] = [store.deviceID: deviceKeys.publicKeys.signing]
            for card in cards where card.device != store.deviceID { signers[card.device] = card.signingKey }
            return EpochChain(
                records: parsed, own: key, ownEpoch: ownEpoch, firstKeyCheck: hub.firstKeyCheck, signers: signers, device: store.deviceID,
                deviceKeys: deviceKeys, hubID: hub.id)
        }
        // The epoch of this device's key: the first record that can be its epoch and is valid (one a
        // holder of an older key made with the same check is not); with none valid, the first that can
        // be, so that a record of it gone or altered is said as such.
        let candidates = EpochRecord.epochs(ofKey: key, among: parsed, hubID: hub.id, firstKeyCheck: hub.firstKeyCheck)
        var ownEpoch = candidates.first ?? .first
        var settled = chain(with: kept, ownEpoch: ownEpoch)
        if candidates.count > 1, settled.record(of: ownEpoch) == nil {
            for candidate in candidates.dropFirst() {
                let tried = chain(with: kept, ownEpoch: candidate)
                guard tried.record(of: candidate) != nil else { continue }
                (ownEpoch, settled) = (candidate, tried)
                break
            }
        }
        self.ownEpoch = ownEpoch
        // A record carries what checks it, so the cards kept nearly always settle the keys, and the
        // cards on the hub are opened once; a card read may still name a record's maker otherwise.
        var read = try await verifiedCards(cardsOnHub, keys: settled.keys)
        while true {
            let next = chain(with: kept + read.cards, ownEpoch: ownEpoch)
            let more = next.keys.count > settled.keys.count
            settled = next
            guard more else { break }
            read = try await verifiedCards(cardsOnHub, keys: settled.keys)
        }
        epochs = settled
        for (epoch, reason) in refused.merging(epochs.refused, uniquingKeysWith: { first, _ in first })
        where !leftInPlace.contains(store.deviceID.rawValue + "/epochs/" + epoch.fileName) {
            report.setAside.append(SetAsideFile(
                device: store.deviceID, name: "epochs/" + epoch.fileName, reason: reason, outcome: .passedOver, at: report.at))
        }
        return read
    }

    /// The hub's epoch records; a failure other than the hub out of reach is said as the records'.
    private func epochRecordsOnHub() async throws -> [KeyEpoch: Result<[UInt8], SyncError>] {
        do { return try await hub.epochRecords() } catch is CancellationError { throw CancellationError() } catch let error as SyncError {
            if case .hubUnavailable = error { throw error }
            throw SyncError.epochsUnreadable(hub: hub.location, reason: failureClause(error))
        } catch {
            throw SyncError.epochsUnreadable(hub: hub.location, reason: failureClause(error))
        }
    }

    /// Takes up the epochs the last reading found, once they are found sound (`checkStanding`): the
    /// current epoch's key becomes this device's, the one `journal sync key` prints and that opens
    /// the hub next time. An exposed current epoch is not taken up: it is the fallback to the first
    /// key, which the revoked hold, and the key held stays until a new epoch is made (`settleKey`).
    func takeUpKey() throws {
        try checkStanding()
        guard !epochs.needsNewEpoch, epochs.current != ownEpoch, let newest = epochs.keys[epochs.current], newest.check != key.check else { return }
        if let keyPath { try newest.save(to: keyPath) }
        key = newest
        ownEpoch = epochs.current
    }

    /// Refuses to go on when this device was revoked, the hub's key was replaced without the new key
    /// reaching it, the record of its own key's epoch is gone or altered (following it back would seal
    /// under a key it replaced), or the records contradict each other: it publishes and applies
    /// nothing, and says so plainly.
    func checkStanding() throws(SyncError) {
        if let (first, second) = epochs.conflict { throw SyncError.epochsInConflict(first: name(of: first.maker), second: name(of: second.maker)) }
        if let revocation = epochs.revoked[store.deviceID] {
            throw SyncError.deviceRevoked(by: name(of: revocation.by.maker), at: revocation.by.madeAt, epoch: revocation.by.epoch.description)
        }
        if let latest = epochs.latest, latest.epoch.number > epochs.current.number {
            throw SyncError.notGivenNewKey(by: name(of: latest.maker), at: latest.madeAt, epoch: latest.epoch.description)
        }
        if ownEpoch != .first, epochs.record(of: ownEpoch) == nil { throw SyncError.epochRecordLost(epoch: ownEpoch.description) }
    }

    /// Takes up the epochs the last reading found (`takeUpKey`), and, when every key this device holds
    /// is within a revoked device's reach (two revocations made at once, each new key wrapped for the
    /// device the other shut out), makes a new epoch for the members among `cards` before anything is
    /// sealed. Two members doing so at once make sibling epochs, both for members only: every device
    /// picks the same one, as for any two rotations.
    func settleKey(cards: [DeviceCard], at now: Timestamp) async throws {
        try takeUpKey()
        guard epochs.needsNewEpoch else { return }
        _ = try await startEpoch(revoking: [], cards: cards, at: now)
    }

    /// The epoch new segments and cards are sealed under, and its key.
    func sealingKey() throws(SyncError) -> (KeyEpoch, SyncKey) {
        let epoch = epochs.current
        guard !epochs.needsNewEpoch else {
            throw SyncError.epochsUnreadable(hub: hub.location, reason: "every key this device holds is one a revoked device holds too")
        }
        guard let key = epochs.keys[epoch] else { throw SyncError.epochRecordLost(epoch: epoch.description) }
        return (epoch, key)
    }

    /// Why a segment of a revoked device past what is taken of it is refused.
    func revokedReason(_ device: DeviceID, _ revocation: (through: Int64, by: EpochRecord)) -> String {
        "its device was revoked by \(TerminalText.quoted(name(of: revocation.by.maker))) on \(LocalTime.display(revocation.by.madeAt)): "
            + "nothing it published past position \(revocation.through) is taken"
    }

    /// The names of `devices`, as their cards say them, or their ids.
    public func names(of devices: [DeviceID]) -> [String] { devices.map(name(of:)) }

    /// Each revoked device, with the record that revoked it, as the last sync or `readCards` found them.
    public func revocations() -> [DeviceID: EpochRecord] { epochs.revoked.mapValues(\.by) }

    /// The device of the hub that `text` names: its name (letter case aside), its whole id, or the
    /// start of its id (8 characters or more, as `journal sync devices` shows it) when that names one.
    public func device(named text: String) async throws -> DeviceID {
        let cards = try await store.deviceCards(hubID: hub.id)
        if let card = cards.first(where: { $0.name.lowercased() == text.lowercased() }) { return card.device }
        let known = Set(cards.map(\.device)).union(try await store.anchors(hubID: hub.id).keys)
        let matching = known.filter { text.count >= 8 && $0.rawValue.hasPrefix(text.lowercased()) }
        guard matching.count == 1, let device = matching.first else { throw SyncError.unknownDevice(text) }
        return device
    }

    /// A device's name as its card says it, or its id when no card of it is known.
    private func name(of device: DeviceID) -> String {
        if device == store.deviceID { return "this device" }
        return cardsRead.first { $0.device == device }?.name ?? knownNames[device] ?? device.rawValue
    }

    /// Starts a new key epoch: a new key, wrapped for every remaining member's card, the current key
    /// sealed under it, and `revoking` shut out from it on (each taken up to what this journal applied
    /// of it). Under the sync lock, after a sync that brings in the latest cards and epochs. Returns
    /// the record made.
    public func rotateKey(revoking: [DeviceID] = []) async throws -> EpochRecord {
        let lock = try FileLock.sync(databasePath: store.path)
        defer { withExtendedLifetime(lock) {} }
        var report = SyncReport()
        report.at = store.clock.now()
        let read = try await takeUpEpochs(cardsOnHub: try await hub.cards(), leftInPlace: [], into: &report)
        try takeUpKey()
        try await store.keepDeviceCards(read.cards, hubID: hub.id)
        guard !revoking.contains(store.deviceID) else { throw SyncError.revokingSelf }
        return try await startEpoch(revoking: revoking, cards: try await store.deviceCards(hubID: hub.id), at: report.at)
    }

    /// Makes a new epoch from `epochs.nextParent`: a new key wrapped for every member among `cards`
    /// less `revoking`, each of those taken up to what this journal applied of it; and takes it up.
    private func startEpoch(revoking: [DeviceID], cards: [DeviceCard], at now: Timestamp) async throws -> EpochRecord {
        let anchors = try await store.anchors(hubID: hub.id)
        var members: [DeviceID: DevicePublicKeys] = [store.deviceID: deviceKeys.publicKeys]
        for card in epochs.members(cards: cards) where !revoking.contains(card.device) { members[card.device] = card.publicKeys }
        guard members.count <= EpochRecord.maximumReached else {
            throw SyncError.unsupported(
                hub: hub.location, operation: "replace its key", reason: "a key is wrapped for at most \(EpochRecord.maximumReached) devices")
        }
        let parent = epochs.nextParent
        guard let parentKey = epochs.keys[parent] else { throw SyncError.epochRecordLost(epoch: parent.description) }
        let made = try EpochRecord.make(
            parent: parent, parentKey: parentKey, members: members,
            revoked: revoking.map { EpochRecord.Revocation(device: $0, through: anchors[$0] ?? 0) }, maker: deviceKeys,
            makerID: store.deviceID, at: now, hubID: hub.id)
        try await hub.writeEpochRecord(made.sealed, as: made.record.epoch)
        // Taken up as any device takes it up: this device's card, and its key file, move to the new epoch.
        // What the reading finds to say was said by the one before it.
        var reading = SyncReport()
        reading.at = now
        _ = try await takeUpEpochs(cardsOnHub: try await hub.cards(), leftInPlace: [], into: &reading)
        try takeUpKey()
        let own = try await store.deviceCard(of: store.deviceID, hubID: hub.id)
        try await writeOwnCard(previous: own, at: now, published: false, synced: false)
        return made.record
    }
}

import JournalKit

extension SyncEngine {
    /// Takes up the epochs the last reading found, once they are found sound (`checkStanding`): the
    /// current epoch's key becomes this device's, the one `journal sync key` prints and that opens
    /// the hub next time. An exposed current epoch is not taken up: it is the fallback to the first
    /// key, which the revoked hold, and the key held stays until a new epoch is made (`settleKey`).
    func takeUpKey(revoking: [DeviceID] = []) throws {
        try checkStanding(revoking: revoking)
        guard !epochs.needsNewEpoch, epochs.current != ownEpoch, let newest = epochs.keys[epochs.current], newest.check != key.check else { return }
        if let keyPath { try newest.save(to: keyPath) }
        key = newest
        ownEpoch = epochs.current
    }

    /// Refuses to go on when this device was revoked, the hub's key was replaced without the new key
    /// reaching it, the record of its own key's epoch is gone or altered (following it back would seal
    /// under a key it replaced), or the records contradict each other: it publishes and applies
    /// nothing, and says so plainly. A key withheld from this device by a device it is revoking (a
    /// member that made a rotation for itself alone) does not stop the revocation: made from the key
    /// this device holds, beside that rotation, it refuses it.
    func checkStanding(revoking: [DeviceID] = []) throws(SyncError) {
        if let (first, second) = epochs.conflict { throw SyncError.epochsInConflict(first: name(of: first.maker), second: name(of: second.maker)) }
        if let revocation = epochs.revoked[store.deviceID] {
            throw SyncError.deviceRevoked(by: name(of: revocation.by.maker), at: revocation.by.madeAt, epoch: revocation.by.epoch.description)
        }
        if let latest = epochs.latest, latest.epoch.number > epochs.current.number, !revoking.contains(latest.maker) {
            throw SyncError.notGivenNewKey(by: name(of: latest.maker), at: latest.madeAt, epoch: latest.epoch.description, why: whyLeftOut())
        }
        if ownEpoch != .first, epochs.record(of: ownEpoch) == nil { throw SyncError.epochRecordLost(epoch: ownEpoch.description) }
    }

    /// Why a new key did not reach this device, as the cards it knows tell: only revoked devices vouched
    /// for it (left out on purpose, as one they made up may be), none did (it joined with the key alone),
    /// or some member did, and its card had not reached the maker.
    private func whyLeftOut() -> LeftOutOfKey {
        let signing = deviceKeys.publicKeys.signing
        let vouchers = cardsKnown.filter { card in
            card.vouches?.contains { $0.device == store.deviceID && $0.signingKey == signing } == true
        }.map(\.device)
        let ownName = cardsKnown.first { $0.device == store.deviceID }?.name ?? store.deviceID.rawValue
        if vouchers.isEmpty { return .unvouched(thisDevice: ownName) }
        if vouchers.allSatisfy({ epochs.revoked[$0] != nil }) { return .vouchedOnlyByRevoked(names(of: vouchers), thisDevice: ownName) }
        return .cardNotSeen
    }

    /// Takes up the epochs the last reading found (`takeUpKey`), and, when every key this device holds
    /// is within a revoked device's reach (two revocations made at once, each new key wrapped for the
    /// device the other shut out), makes a new epoch for the members among `cards` before anything is
    /// sealed. Two members doing so at once make sibling epochs, both for members only: every device
    /// picks the same one, as for any two rotations.
    func settleKey(into report: inout SyncReport) async throws {
        try takeUpKey()
        guard epochs.needsNewEpoch else { return }
        try await keepCardsRead()
        _ = try await startEpoch(revoking: [], keeping: [], into: &report)
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

    /// How each device stands in the hub, as the last sync or `readCards` found it.
    public func standing(of device: DeviceID) -> MemberStanding { membership.standing(of: device) }

    /// Each revoked device, with the record that revoked it, as the last sync or `readCards` found them.
    public func revocations() -> [DeviceID: EpochRecord] { epochs.revoked.mapValues(\.by) }

    /// The device of the hub that `text` names: its name (as `DeviceName.key` compares names: case,
    /// width and look-alike letters aside), its whole id, or the start of its id (8 characters or
    /// more, as `journal sync devices` shows it). Refused when it names none, or more than one
    /// (`ambiguousDevice`, with each candidate): acting on the wrong machine is worse than asking.
    public func device(named text: String) async throws -> DeviceID {
        let cards = try await store.deviceCards(hubID: hub.id)
        let known = Set(cards.map(\.device)).union(try await store.anchors(hubID: hub.id).keys)
        let typed = text.trimmingSpaces
        // Text that reads as an id names devices by their ids only: no name reads as one (`DeviceName`).
        let prefix = typed.lowercased()
        var matching: Set<DeviceID>
        if DeviceName.readsAsDeviceID(typed) || UUIDText.isCanonical(prefix) {
            matching = known.filter { $0.rawValue.hasPrefix(prefix) }
        } else {
            let wanted = DeviceName.key(typed)
            matching = Set(cards.filter { DeviceName.key($0.name) == wanted }.map(\.device))
        }
        guard matching.count <= 1 else {
            throw SyncError.ambiguousDevice(text, candidates: matching.sorted().map { DeviceCandidate(name: name(of: $0), id: $0) })
        }
        guard let device = matching.first else { throw SyncError.unknownDevice(text) }
        return device
    }

    /// Why `device`'s cards and segments are not taken.
    func notMemberReason(_ device: DeviceID) -> String {
        if let revocation = epochs.revoked[device] { return revokedReason(device, revocation) }
        return "it is not a member of the hub: its card is sealed under a key that admits no one now (a revoked device holds it, or a "
            + "newer key replaced it), and no member vouches for it; until one does, nothing it publishes is taken"
    }

    /// A device's name as its card says it, or its id when no card of it is known.
    func name(of device: DeviceID) -> String {
        if device == store.deviceID { return "this device" }
        return cardsRead.cards.first { $0.device == device }?.name ?? knownNames[device] ?? device.rawValue
    }

    /// Starts a new key epoch: a new key, wrapped for every remaining member's card, the current key
    /// sealed under it, and `revoking` shut out from it on (each taken up to what this journal applied
    /// of it). Under the sync lock, after a sync that brings in the latest cards and epochs. Returns
    /// the record made.
    @discardableResult
    public func rotateKey(revoking: [DeviceID] = [], keeping: [DeviceID] = []) async throws -> EpochRecord {
        try await newEpoch(revoking: revoking, keeping: keeping).record
    }

    /// Starts a new key epoch as `rotateKey` does, and says whom it left out and why. `keeping` are
    /// devices a person vouches for: this device's card vouches for them from now on, and the new key
    /// goes to them too.
    public func newEpoch(revoking: [DeviceID] = [], keeping: [DeviceID] = []) async throws -> NewEpoch {
        let lock = try FileLock.sync(databasePath: store.path)
        defer { withExtendedLifetime(lock) {} }
        var report = SyncReport()
        report.at = store.clock.now()
        cardsRead = try await takeUpEpochs(leftInPlace: [], into: &report)
        try takeUpKey(revoking: revoking)
        try await keepCardsRead()
        guard !revoking.contains(store.deviceID) else { throw SyncError.revokingSelf }
        var made = try await startEpoch(revoking: revoking, keeping: keeping, into: &report)
        made.notes = report.keptNotes
        return made
    }

    /// Makes a new epoch from `epochs.nextParent`: a new key wrapped for the devices this device reaches
    /// through vouches once `revoking` are shut out (`Membership.vouched`), at most
    /// `EpochRecord.maximumReached` of them, nearest first, each of the revoked taken up to what this
    /// journal applied of it; and takes it up.
    private func startEpoch(revoking: [DeviceID], keeping: [DeviceID], into report: inout SyncReport) async throws -> NewEpoch {
        let now = report.at
        let anchors = try await store.anchors(hubID: hub.id)
        var cards = try await store.deviceCards(hubID: hub.id)
        if var own = cards.first(where: { $0.device == store.deviceID }) {
            // Whom this device vouches for as of the cards just read, and the devices the person vouches
            // for: this device's card says so from now on.
            var vouches = try await self.vouches(previous: own, at: now).vouches
            for card in cards where keeping.contains(card.device) && !vouches.contains(where: { $0.device == card.device }) {
                vouches.append(DeviceCard.Vouch(device: card.device, signingKey: card.signingKey))
            }
            own.vouches = vouches
            cards = cards.filter { $0.device != store.deviceID } + [own]
        }
        let wrap = EpochWrap(
            chain: epochs, cards: cards, device: store.deviceID, keys: deviceKeys.publicKeys, revoking: Set(revoking), admitted: membership.admitted)
        // A device that joined with an invitation a moment ago knows no member's vouch yet: a key it
        // made now would go to it alone, and every other member would be left out.
        if wrap.reachesOnlyItself, try await store.ownAdmission() != nil { throw SyncError.notVouchedYet }
        let members = wrap.members
        let leftOut = wrap.leftOut.map { NewEpoch.LeftOut(device: $0.device, name: name(of: $0.device), reason: $0.reason) }
        let parent = epochs.nextParent
        guard let parentKey = epochs.keys[parent] else { throw SyncError.epochRecordLost(epoch: parent.description) }
        let made = try EpochRecord.make(
            parent: parent, parentKey: parentKey, members: members,
            revoked: revoking.map { EpochRecord.Revocation(device: $0, through: anchors[$0] ?? 0) }, maker: deviceKeys,
            makerID: store.deviceID, at: now, hubID: hub.id, taken: applied(anchors: anchors))
        try await hub.writeEpochRecord(made.sealed, as: made.record.epoch)
        // Taken up as any device takes it up: this device's card, and its key file, move to the new epoch.
        // What the reading finds to say was said by the one before it.
        var reading = SyncReport()
        reading.at = now
        cardsRead = try await takeUpEpochs(leftInPlace: [], into: &reading)
        try takeUpKey()
        try await keepCardsRead()
        // The card written now says whom this device vouches for, the devices kept by name among them.
        var own = try await store.deviceCard(of: store.deviceID, hubID: hub.id)
        own?.vouches = cards.first { $0.device == store.deviceID }?.vouches
        try await writeOwnCard(previous: own, at: now, published: false, synced: false, into: &report)
        // A new key ends the invitations printed with the one before: a key is replaced when it leaked.
        try await store.endInvitations(nil, why: .keyReplaced, at: now, hubID: hub.id)
        return NewEpoch(record: made.record, leftOut: leftOut)
    }

    /// How far this journal applied each device's log, which a new record vouches for (`EpochRecord.taken`):
    /// what it applied itself, never what other records claimed (a member's claims go with it when it is
    /// revoked). The revoked are taken as their revocations say.
    private func applied(anchors: [DeviceID: Int64]) -> [DeviceID: Int64] {
        let applied = anchors.filter { $0.value > 0 && epochs.revoked[$0.key] == nil }.sorted { $0.key < $1.key }
        return Dictionary(uniqueKeysWithValues: applied.prefix(EpochRecord.maximumTaken).map { ($0.key, $0.value) })
    }
}

/// A new key epoch, and the devices the new key did not go to.
public struct NewEpoch: Sendable {
    public let record: EpochRecord
    public let leftOut: [LeftOut]
    /// What writing this device's card found to say (an invitation two devices showed).
    public var notes: [SetAsideFile] = []

    /// A device the new key did not go to, and why.
    public struct LeftOut: Sendable, Equatable {
        public let device: DeviceID
        public let name: String
        public let reason: Reason
    }

    public enum Reason: Sendable, Equatable {
        /// It joined with the key alone, and no member vouches for it (`Membership`): anyone who held
        /// the key could have made it.
        case unvouched
        /// Only devices being revoked vouched for it: one of them may have made it up.
        case vouchedOnlyByRevoked
        /// More devices are vouched for than a key is wrapped for (`EpochRecord.maximumReached`): it was
        /// farthest from this device.
        case beyondLimit
        /// Its card's keys cannot be wrapped for.
        case unusableKeys(String)
    }
}

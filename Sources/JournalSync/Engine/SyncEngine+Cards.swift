import JournalKit

extension SyncEngine {
    /// A card whose only news is when its device last published or synced is written again after this
    /// long: a daemon syncing at every add, or every few minutes, writes its card to the hub (which a
    /// sync tool then copies everywhere, and whose every new card makes every other device read the
    /// cards again) at most this often. So a card's times are at most this much older than what they
    /// tell (`DeviceList.ago`), on a hub that rings; on a polled hub a quiet daemon syncs only every
    /// few hours (`LoopPolicy.polledHousekeeping`), and its card says so. A device is called silent
    /// after a day.
    static let cardRefreshInterval: Int64 = 10 * 60_000

    /// True when `instant`, a time a card tells, is recent enough at `now` not to be written again
    /// for it alone. Either way: a clock stepped back must not keep the card from being refreshed for good.
    static func isFreshEnough(_ instant: Timestamp?, at now: Timestamp) -> Bool {
        guard let instant else { return false }
        return abs(now.milliseconds - instant.milliseconds) < cardRefreshInterval
    }

    /// The most devices a card vouches for: more than any person has, and few enough for a card's
    /// 16 KiB.
    static let maximumVouches = 100

    /// What a sync does with the cards at each of its moments.
    enum CardStep {
        /// Before anything else: every other device's card, so that its segments' signatures can be checked.
        case read
        /// Before publishing: this device's first card from a journal that signs, saying from which
        /// position it signs everything (past `published`), unless the hub has it already.
        case announceSigning(published: Int64)
        /// After the pull: this device's card, when it says something new.
        case write
    }

    /// Reads every other device's card and keeps, for each, the latest that verifies, or writes this
    /// device's own when it says something new. Refused cards are said once, like files passed over.
    /// Cards are what devices say of themselves, not the journal: a card that cannot be read or written
    /// (another member of a shared folder made `cards` something else) is said, and the sync that moved
    /// the drinks stands.
    func exchangeCards(_ step: CardStep, leftInPlace: Set<HubEntry>, into report: inout SyncReport) async throws {
        do {
            switch step {
            case .read:
                // Cards that cannot be read are said once, below; the epochs are taken up all the same,
                // with the cards this journal keeps. Kept in the journal at the sync's end: until the
                // pull, a sync with nothing new writes nothing.
                cardsRead = try await takeUpEpochs(leftInPlace: leftInPlace, into: &report)
                if let unreachable = cardsRead.unreachable { throw unreachable }
            case .announceSigning(let published):
                let own = try await store.deviceCard(of: store.deviceID, hubID: hub.id)
                guard own?.signedFrom == nil else { return }
                try await writeOwnCard(previous: own, at: report.at, published: false, synced: false, signedFrom: published + 1, into: &report)
            case .write:
                try await keepCardsRead()
                let own = try await store.deviceCard(of: store.deviceID, hubID: hub.id)
                try await writeOwnCard(previous: own, at: report.at, published: report.segmentsWritten > 0, synced: true, into: &report)
            }
        } catch let unreachable as CardsUnreachable {
            // The cards' files or rows failed (a server's error types too): said once, and the sync stands.
            let name = HubLayout.cardFileName(store.deviceID)
            if !leftInPlace.contains(HubEntry(device: store.deviceID, name: name)),
                !report.mentions(HubEntry(device: store.deviceID, name: name))
            {
                report.setAside.append(SetAsideFile(
                    device: store.deviceID, name: name, reason: "the cards could not be read or written (\(failureClause(unreachable.cause)))",
                    outcome: .left, at: report.at))
            }
        }
    }

    /// Calls the hub for its cards: a failure is the cards' (`CardsUnreachable`), except a hub out of
    /// reach or a cancelled sync, which end the sync as anywhere else.
    func cardsOnHub<T>(_ call: () async throws -> T) async throws -> T {
        do { return try await call() } catch is CancellationError { throw CancellationError() } catch let error as SyncError {
            if error.hubCondition == .unreachable { throw error }
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

    /// Reads the hub's cards and records as a sync starts by doing, and keeps the cards that verify. A
    /// card that does not verify, or names other keys than its device first showed (someone holding
    /// the hub's key speaking as that device), is refused on its own and never kept: returned, by
    /// device, with why (every card of the hub refused so far, not only those read now).
    public func readCards() async throws -> [DeviceID: String] {
        var report = SyncReport()
        cardsRead = try await takeUpEpochs(leftInPlace: [], into: &report)
        try await keepCardsRead()
        if let unreachable = cardsRead.unreachable { throw unreachable.cause }
        // Whom this device vouches for as its next card will say (a machine that joined with one of its
        // invitations since it last wrote one): what `sync devices` shows and a new key would do.
        if var own = try await store.deviceCard(of: store.deviceID, hubID: hub.id) {
            own.vouches = try await vouches(previous: own, at: store.clock.now()).vouches
            let cards = try await store.deviceCards(hubID: hub.id).filter { $0.device != store.deviceID } + [own]
            membership = Membership(chain: epochs, cards: cards, device: store.deviceID)
        }
        var refused: [DeviceID: String] = [:]
        for (name, item) in try await store.hubItems(.card, hubID: hub.id) where item.outcome == .refused {
            refused[DeviceID(rawValue: name)] = item.reason ?? ""
        }
        return refused
    }

    /// Keeps the cards the last reading found, and remembers what came of each card it read.
    func keepCardsRead() async throws {
        try await store.keepDeviceCards(cardsRead.cards, hubID: hub.id)
        keptCards = [:]
        try await store.recordHubItems(cardsRead.cardItems, hubID: hub.id)
        cardsRead = HubReading()
    }

    /// The card that tells `device`'s signatures: the one this sync read, or the one kept.
    func card(of device: DeviceID) async throws -> DeviceCard? {
        if let read = cardsRead.cards.first(where: { $0.device == device }) { return read }
        if let kept = keptCards[device] { return kept }
        let kept = try await store.deviceCard(of: device, hubID: hub.id)
        keptCards[device] = kept
        return kept
    }

    /// Writes this device's card, unless the one written last says the same and is recent. `name`
    /// replaces the name the card had (the host name, for a device's first card); `signedFrom` says
    /// from where this device signs, where the card before did not. The card says whom this device
    /// vouches for (`vouches(previous:)`) and the claims of the invitations it printed; what that
    /// changed is acted on once the card is kept (an invitation used is not honoured again), and said
    /// in `report`.
    func writeOwnCard(
        previous: DeviceCard?, at now: Timestamp, published: Bool, synced: Bool, name: DeviceName? = nil, signedFrom: Int64? = nil,
        into report: inout SyncReport
    ) async throws {
        try checkKeys(of: previous)
        let keys = deviceKeys.publicKeys
        // A device that took over from another (`new-device`) keeps its name, and says so, with a proof.
        let handedOver = previous == nil ? try await handOver() : nil
        let chosenName: String
        if let name { chosenName = name.text } else if let previous { chosenName = previous.name } else if let kept = handedOver?.name {
            chosenName = kept
        } else {
            chosenName = try await unusedHostName().text
        }
        let update = try await vouches(previous: previous, at: now)
        let claims = try await claimsShown(at: now)
        let card = DeviceCard(
            device: store.deviceID, name: chosenName,
            agreementKey: keys.agreement, signingKey: keys.signing, epoch: Int64(epochs.current.number),
            // Later than the card before it, whatever the clock did: the later card is the one kept.
            writtenAt: Timestamp(milliseconds: max(now.milliseconds, (previous?.writtenAt.milliseconds ?? 0) + 1)),
            publishedAt: published ? now : previous?.publishedAt, syncedAt: synced ? now : previous?.syncedAt,
            signedFrom: previous?.signedFrom ?? signedFrom, vouches: update.vouches, admission: try await store.ownAdmission(),
            invitations: claims.isEmpty ? nil : claims, succeeds: previous?.succeeds ?? handedOver?.succession)
        // A publish alone is no news until the card's word on it is old: with every publish a new card,
        // every add cost every other device a reading of all the cards.
        if let previous, previous.name == card.name, previous.signedFrom == card.signedFrom, previous.epoch == card.epoch,
            previous.publishedAt == card.publishedAt || Self.isFreshEnough(previous.publishedAt, at: now),
            previous.vouches == card.vouches, previous.admission == card.admission, previous.invitations == card.invitations,
            previous.succeeds == card.succeeds,
            Self.isFreshEnough(previous.syncedAt, at: now)
        {
            return
        }
        let (epoch, key) = try sealingKey()
        let sealed = try CardSeal.seal(card, keys: deviceKeys, epoch: epoch, key: key, hubID: hub.id)
        try await cardsOnHub { try await hub.writeCard(sealed, of: store.deviceID) }
        var kept = card
        kept.sealedEpoch = epoch.text
        try await store.keepDeviceCard(kept, hubID: hub.id)
        keptCards = [:]
        // Only now that the card saying so is on the hub and kept: an invitation is used once.
        for (publicKey, device) in update.used { try await store.markInvitationUsed(publicKey: publicKey, by: device, hubID: hub.id) }
        for (invitation, devices) in update.conflicts {
            let names = devices.map { TerminalText.quoted(self.name(of: $0)) }.joined(separator: " and ")
            let note = SetAsideFile(
                device: store.deviceID, name: "invitation " + invitation.id,
                reason: "the invitation printed here on \(LocalTime.display(invitation.madeAt)) was used by \(names): this device vouches for "
                    + "neither, as one of them is not the machine it was printed for (`journal sync rotate-key --keep NAME` keeps yours)",
                outcome: .noted, at: now)
            // Kept with the invitation's end, whichever card write found it: said by this command, and by
            // `sync status` until the next note.
            try await store.endSharedInvitation(publicKey: invitation.publicKey, note: note, hubID: hub.id)
            report.keptNotes.append(note)
        }
    }

    /// The name of the device this journal took over from (`new-device`), and the proof of the hand-over
    /// when that device's key file is here; nil for a journal that took over from none.
    private func handOver() async throws -> (name: String?, succession: DeviceCard.Succession?)? {
        guard let old = try await store.succeededDevice() else { return nil }
        let name = try await store.deviceCard(of: old, hubID: hub.id)?.name
        guard let oldKeys = try? DeviceKeys.existing(at: JournalPaths.fromEnvironment().deviceKeys(of: old)) else { return (name, nil) }
        return (name, try Succession.proof(by: oldKeys, old: old, to: store.deviceID, keys: deviceKeys.publicKeys, hubID: hub.id))
    }

    /// The most invitations' claims a card shows: a person prints a few a week (each ends in 7 days, at
    /// its first use, at a new key), so the machine that joined with any of them finds its claim.
    static let claimsShown = 64

    /// The claims this device's card shows: of its open invitations, newest first, and of those used by
    /// a device whose card does not vouch for this one yet (it is still to find who invited it).
    private func claimsShown(at now: Timestamp) async throws -> [[UInt8]] {
        let cards = Self.latest(try await store.deviceCards(hubID: hub.id), cardsRead.cards)
        let signing = deviceKeys.publicKeys.signing
        return try await store.invitations(hubID: hub.id).filter { invitation in
            if invitation.isOpen(at: now, currentKeyCheck: key.check) { return true }
            guard let user = invitation.usedBy, invitation.ended == nil else { return false }
            let joiner = cards.first { $0.device == user }
            return joiner?.vouches?.contains { $0.device == store.deviceID && $0.signingKey == signing } != true
        }.prefix(Self.claimsShown).map(\.claim)
    }

    /// The name a device's first card gives it: the host name, or, when another device of the hub
    /// goes by a name that looks the same (machines made from one image), the host name and a number.
    /// The cards this sync read count, kept or not yet: a joiner's first card is written before it
    /// keeps the others' (`CardStep.announceSigning`).
    private func unusedHostName() async throws -> DeviceName {
        let host = DeviceName.host(fallback: store.deviceID)
        let cards = Self.latest(try await store.deviceCards(hubID: hub.id), cardsRead.cards)
        let taken = Set(cards.filter { $0.device != store.deviceID }.map { DeviceName.key($0.name) })
        guard taken.contains(DeviceName.key(host.text)) else { return host }
        for number in 2...taken.count + 2 {
            if let numbered = try? DeviceName("\(host.text.prefix(DeviceName.maximumLength - 4)) \(number)"), !taken.contains(DeviceName.key(numbered.text)) {
                return numbered
            }
        }
        return host
    }

    /// Whom this device's card vouches for (`Membership`), and what to act on once the card saying so
    /// is kept. On its first card of this kind, a device that joined with the key alone (or was updated
    /// from a journal before vouching) vouches for the devices admitted then, the members it found; one
    /// that joined with an invitation, for none yet. From then on the same, less the revoked, with the
    /// device whose invitation it joined with (the card showing the claim only the printed secret
    /// tells, `Invitations.claim`), and each device that joined with one of its own invitations: the
    /// first to show a proof of it, with a card sealed under a key that admits now. An invitation two
    /// devices show vouches for neither: one of them is not the machine it was printed for. A device
    /// never vouches back for a device because that one vouches for it: a device made up with the key
    /// could then have itself vouched for by any member.
    func vouches(previous: DeviceCard?, at now: Timestamp) async throws -> VouchUpdate {
        let cards = Self.latest(try await store.deviceCards(hubID: hub.id), cardsRead.cards).filter { $0.device != store.deviceID }
        var byDevice: [DeviceID: DeviceCard] = [:]
        for card in cards { byDevice[card.device] = card }
        let tag = try await store.invitationTag()
        let grandfathered = tag != nil ? [] : membership.admitted.sorted().compactMap { device in
            byDevice[device].map { DeviceCard.Vouch(device: device, signingKey: $0.signingKey) }
        }
        var update = VouchUpdate(vouches: previous?.vouches ?? grandfathered)
        // A revoked device goes, and so does every device it handed over to, in turn.
        let shutOut = VouchGraph.withSuccessors(Set(epochs.revoked.keys), cards: cards)
        update.vouches.removeAll { shutOut.contains($0.device) || byDevice[$0.device]?.signingKey != $0.signingKey }
        func add(_ card: DeviceCard) -> Bool {
            guard !update.vouches.contains(where: { $0.device == card.device }) else { return true }
            guard epochs.revoked[card.device] == nil, update.vouches.count < Self.maximumVouches else { return false }
            update.vouches.append(DeviceCard.Vouch(device: card.device, signingKey: card.signingKey))
            return true
        }
        // A device that took over from one this device vouches for, by that device's own proof: one
        // successor a device, as a hand-over two devices show vouches for neither.
        let successors = Dictionary(grouping: cards.compactMap { card in card.succeeds.map { ($0.device, card.device) } }, by: \.0)
        for card in cards.sorted(by: { $0.device < $1.device }) {
            guard let handedOver = card.succeeds, successors[handedOver.device]?.count == 1, let old = byDevice[handedOver.device],
                !shutOut.contains(old.device),
                update.vouches.contains(where: { $0.device == old.device && $0.signingKey == old.signingKey }),
                Succession.verifies(handedOver, of: card, oldSigningKey: old.signingKey, hubID: hub.id)
            else { continue }
            _ = add(card)
        }
        if let tag, let inviter = cards.sorted(by: { $0.device < $1.device }).first(where: { card in
            membership.admits(card.device) && card.invitations?.contains(Invitations.claim(tag: tag, device: card.device)) == true
        }) {
            _ = add(inviter)
        }
        for invitation in try await store.invitations(hubID: hub.id) where invitation.isOpen(at: now, currentKeyCheck: key.check) {
            let showing = cards.filter { card in
                guard let admission = card.admission, admission.invitationKey == invitation.publicKey else { return false }
                return Invitations.verifies(admission, of: card, hubID: hub.id)
            }.sorted { $0.device < $1.device }
            guard let joiner = showing.first else { continue }
            if showing.count > 1 {
                update.vouches.removeAll { vouch in showing.contains { $0.device == vouch.device } }
                update.conflicts.append((invitation, showing.map(\.device)))
                continue
            }
            guard let sealed = joiner.sealedEpoch.flatMap(KeyEpoch.init(text:)), epochs.admitting.contains(sealed), add(joiner) else { continue }
            update.used.append((invitation.publicKey, joiner.device))
        }
        return update
    }

    /// Renames this device: its card, on the hub and here, says `name` from now on. Refused when another
    /// device of the hub is known by that name already. Returns what the card's writing found to say.
    public func rename(to name: DeviceName) async throws -> SyncReport {
        let lock = try FileLock.sync(databasePath: store.path)
        defer { withExtendedLifetime(lock) {} }
        let cards = try await store.deviceCards(hubID: hub.id)
        if let other = cards.first(where: { $0.device != store.deviceID && DeviceName.key($0.name) == DeviceName.key(name.text) }) {
            throw SyncError.deviceNameTaken(name: name.text, by: other.device)
        }
        // Sealed only under a key the hub's members alone hold, as a sync seals.
        var report = SyncReport()
        report.at = store.clock.now()
        try await settleKey(into: &report)
        let previous = try await store.deviceCard(of: store.deviceID, hubID: hub.id)
        try await writeOwnCard(previous: previous, at: report.at, published: false, synced: false, name: name, into: &report)
        return report
    }

    /// Writes this device's card now, with the claims of the invitations it printed, so that a machine
    /// joining with one finds, at its first sync, who invited it. Returns what the writing found to say.
    public func showInvitations() async throws -> SyncReport {
        // The keys and cards the card is written with, as a sync reads them.
        _ = try await readCards()
        let lock = try FileLock.sync(databasePath: store.path)
        defer { withExtendedLifetime(lock) {} }
        var report = SyncReport()
        report.at = store.clock.now()
        try await settleKey(into: &report)
        let previous = try await store.deviceCard(of: store.deviceID, hubID: hub.id)
        try await writeOwnCard(previous: previous, at: report.at, published: false, synced: false, into: &report)
        return report
    }
}

/// The hub's cards could not be read or written: `cause` says why.
struct CardsUnreachable: Error {
    let cause: any Error
}

/// Whom a device's card vouches for, and what to act on once the card saying so is kept.
struct VouchUpdate {
    var vouches: [DeviceCard.Vouch]
    /// Invitations of this device a device joined with, and that device: used once the card is kept.
    var used: [(publicKey: [UInt8], device: DeviceID)] = []
    /// Invitations two devices showed, and those devices: closed, and said, once the card is kept.
    var conflicts: [(invitation: Invitation, devices: [DeviceID])] = []
}

import JournalKit

/// Publishes this device's changes to the hub and applies every other device's, once per `sync()`.
///
/// It runs on the store's thread (its executor is the store's), so its many store calls hand nothing
/// between threads, and the hub's blocking file I/O never holds one of Swift's cooperative threads.
public actor SyncEngine {
    public nonisolated let store: JournalStore
    public nonisolated let hub: any Hub
    /// The key this device holds: the one it joined with, or the newest it took up since. Kept at
    /// `keyPath`, when there is one, so that it survives the process.
    var key: SyncKey
    nonisolated let keyPath: String?
    /// The hub's key epochs as this sync found them: the keys held, the epoch new segments are sealed
    /// under, the devices shut out.
    var epochs: EpochChain
    /// The epoch of `key`, as the last reading of the hub's records found it.
    var ownEpoch: KeyEpoch = .first
    /// This device's own keys: its card shows their public halves.
    nonisolated let deviceKeys: DeviceKeys
    /// Records per segment: big enough that a first sync writes few files, small enough that a
    /// segment is quick to seal, write and apply (and within `SegmentName.maximumBytes`).
    let segmentSize: Int

    /// Other devices' cards read at this sync's start, kept in the journal at its end.
    var cardsRead = HubReading()
    /// The cards the journal keeps, as `card(of:)` read them during this sync (nil: none kept): each is
    /// read and decoded once a sync, not once per segment. Forgotten when a sync starts or ends and when
    /// the journal keeps a card, so another process's cards count from the next sync on.
    var keptCards: [DeviceID: DeviceCard?] = [:]
    /// Who is a member of the hub, as the last reading of its cards and records found it.
    var membership: Membership
    /// The last key epoch chains worked out, and from what: the same again is not worked out again.
    var chainMemos: [(memo: ChainMemo, chain: EpochChain)] = []
    /// Every device's name as the journal keeps its card, for messages.
    var knownNames: [DeviceID: String] = [:]
    /// Every card the last reading of the hub knew of (kept, or read then), this device's own among
    /// them: what tells why a new key left this device out.
    var cardsKnown: [DeviceCard] = []
    /// A whole sync went through since this engine was made: what it knows of cards, key epochs and
    /// membership is the hub's as of then, and a log-only read may rely on it.
    var wholeSyncDone = false
    /// While the journal moves to this hub (`SyncLedger.isMoving`): every record the pull found on the
    /// hub, which publishing does not relay again.
    var foundOnHub: Set<RecordOnHub>?

    /// The most records a segment holds.
    public static let maximumSegmentRecords = 2000

    public nonisolated var unownedExecutor: UnownedSerialExecutor { store.unownedExecutor }

    public init(
        store: JournalStore, hub: any Hub, key: SyncKey, keyPath: String? = nil, deviceKeys: DeviceKeys,
        segmentSize: Int = SyncEngine.maximumSegmentRecords
    ) {
        self.store = store
        self.hub = hub
        self.key = key
        self.keyPath = keyPath
        // Until a sync (or `readCards`) reads the hub's records, the key is all there is: which epoch's
        // it is is known only then, and nothing is sealed before.
        epochs = EpochChain(key: key)
        membership = Membership(chain: EpochChain(key: key), cards: [], device: store.deviceID)
        self.deviceKeys = deviceKeys
        self.segmentSize = min(max(segmentSize, 1), Self.maximumSegmentRecords)
    }

    /// One sync, under the journal's sync lock, as its plan says (`SyncPlan`): of `scope`, or whole when
    /// a log-only read cannot settle what it found (`SyncEngine+RangLogs`). A whole sync checks this
    /// device's own log, publishes, then pulls. Segments that cannot be applied are in the report's
    /// failures; the rest still syncs. Cancelled, it stops between segments, having applied whole
    /// segments only. Each segment is a step of `progress`.
    public func sync(_ scope: SyncScope = .whole, progress: SyncProgress = SyncProgress()) async throws -> SyncReport {
        let lock = try FileLock.sync(databasePath: store.path)
        defer { withExtendedLifetime(lock) {} }
        var (ledger, restored) = try await checkJournal()
        keptCards = [:]
        defer { keptCards = [:] }
        var report = SyncReport()
        report.at = store.clock.now()
        let plan = SyncPlan.make(
            scope, own: store.deviceID, wholeSyncDone: wholeSyncDone, canRemoveSegments: hub.canRemoveSegments, ledger: ledger)
        foundOnHub = ledger.isMoving ? [] : nil
        defer { foundOnHub = nil }
        let leftInPlace = Set(ledger.setAside.filter { $0.outcome != .moved }.map(\.entry))
        if let devices = plan.rangLogs,
            let read = try await syncLogs(devices, ledger: &ledger, leftInPlace: leftInPlace, into: &report, progress: progress)
        {
            return read
        }
        for step in plan.steps {
            try await run(step, ledger: &ledger, leftInPlace: leftInPlace, into: &report, progress: progress)
        }
        // Remembered once the sync is through: one that stops midway finds them again, and says them then.
        try await store.recordSetAside(report.setAside, hubID: hub.id)
        if restored {
            // A backup put back in its place caught up as a device that was offline: the file is the journal's now.
            try await store.recordFileIdentity()
            report.restored = true
        }
        wholeSyncDone = true
        return report
    }

    /// The journal's part of a sync's checks (the hub it joined, when it may sync), its ledger, and
    /// whether its file is a backup put back in its place (`FileStanding.restoredInPlace`).
    private func checkJournal() async throws -> (SyncLedger, restored: Bool) {
        // One read; a schema a newer journal migrated the file to since this process opened it throws.
        let start = try await store.syncStart(hubID: hub.id)
        // Checked under the lock, which taking a new device id holds while it changes the id.
        guard start.storedDeviceID == store.deviceID else { throw SyncError.deviceIdentityChanged }
        // A copy of the file would publish as this device: refuse before it writes anything.
        var standing = start.fileStanding
        if standing == nil { standing = try await store.fileStanding() }
        guard standing != .copied else { throw SyncError.copiedFile(path: store.path) }
        if standing == .original { try await store.recordPlaceIfMissing() }
        guard let ledger = start.ledger else { throw SyncError.notJoined }
        return (ledger, standing == .restoredInPlace)
    }

    /// One step of a whole sync. Files left where they are (`leftInPlace`) were said when first found:
    /// not again at every sync.
    private func run(
        _ step: SyncPlan.Step, ledger: inout SyncLedger, leftInPlace: Set<HubEntry>, into report: inout SyncReport, progress: SyncProgress
    ) async throws {
        switch step {
        case .readCardsAndEpochs:
            try await hub.refresh(after: ledger.positionsKnown(own: store.deviceID))
            // Before the pull: a card tells whose signature a segment must carry, and the key epochs which
            // key seals what. Before publishing: a device shut out publishes nothing.
            try await exchangeCards(.read, leftInPlace: leftInPlace, into: &report)
            try await settleKey(into: &report)
            try await checkOwnKeys()
        case .checkOwnLog:
            try await checkOwnLog(ledger: &ledger, leftInPlace: leftInPlace, into: &report, progress: progress)
        case .announceSigning:
            // Before publishing: readers refuse this device's unsigned segments from the card's word on.
            // Past everything this device ever published unsigned, a segment left by a crash included.
            let published = max(ledger.publishedThrough, ledger.nextSegmentFirst - 1)
            try await exchangeCards(.announceSigning(published: published), leftInPlace: leftInPlace, into: &report)
        case .publish:
            try await publish(ledger: &ledger, leftInPlace: leftInPlace, into: &report, progress: progress)
        case .compact(let compaction):
            guard compaction == .always || report.segmentsWritten > 0 || !report.republished.isEmpty else { return }
            try await compactOwnLog(ledger: &ledger, into: &report, progress: progress)
        case .pull:
            try await pull(ledger: &ledger, leftInPlace: leftInPlace, into: &report, progress: progress)
        case .noteKeptFromShutOut:
            noteKeptFromShutOut(anchors: ledger.anchors, leftInPlace: leftInPlace, into: &report)
        case .writeCards:
            // After the pull: other devices' changes are applied before this sync writes anything more.
            try await exchangeCards(.write, leftInPlace: leftInPlace, into: &report)
        }
    }

    /// A sync whose outcome is recorded in the journal for `journal sync status`, failed or not: what
    /// both `journal sync` and the daemon run.
    public func syncRecordingResult(_ scope: SyncScope = .whole, progress: SyncProgress = SyncProgress()) async throws -> SyncReport {
        let report: SyncReport
        do {
            report = try await sync(scope, progress: progress)
        } catch {
            if !(error is CancellationError) {
                try? await store.recordSyncOutcome(.failed(error), at: store.clock.now(), hubID: hub.id, notifiedAt: await hub.lastNotification())
            }
            throw error
        }
        try await store.recordSyncOutcome(report.outcome, at: store.clock.now(), hubID: hub.id, notifiedAt: await hub.lastNotification())
        return report
    }

    /// Says once what this journal applied of a revoked device past its revocation: a device that
    /// applied it before the revocation reached it (offline, or its copy of a folder behind) keeps it,
    /// and is told so rather than "this journal and the hub agree".
    private func noteKeptFromShutOut(anchors: [DeviceID: Int64], leftInPlace: Set<HubEntry>, into report: inout SyncReport) {
        for kept in keptFromShutOut(anchors: anchors) where !leftInPlace.contains(HubEntry(device: kept.device, name: SetAsideFile.keptName)) {
            report.setAside.append(SetAsideFile(device: kept.device, name: SetAsideFile.keptName, reason: kept.sentence, outcome: .noted, at: report.at))
        }
    }

    /// What this journal applied of each revoked device past its revocation.
    public func keptFromShutOut() async throws -> [KeptChanges] {
        keptFromShutOut(anchors: try await store.anchors(hubID: hub.id))
    }

    /// What this journal applied of each revoked device past its revocation, by `anchors`.
    private func keptFromShutOut(anchors: [DeviceID: Int64]) -> [KeptChanges] {
        epochs.revoked.sorted { $0.key < $1.key }.compactMap { device, revocation in
            guard let applied = anchors[device], applied > revocation.through else { return nil }
            return KeptChanges(
                device: device, name: name(of: device), from: revocation.through + 1, through: applied, revokedBy: name(of: revocation.by.maker),
                revokedAt: revocation.by.madeAt)
        }
    }

    /// How far each device's log need not be listed again (`SyncLedger.positionsKnown`), as the journal
    /// says now: for a look at the hub outside a sync.
    public func positionsKnown() async throws -> [DeviceID: Int64] {
        try await store.syncLedger(hubID: hub.id)?.positionsKnown(own: store.deviceID) ?? [:]
    }

    /// The key of `epoch`, when this device has it.
    func epochKey(_ epoch: KeyEpoch) -> SyncKey? { epochs.keys[epoch] }

    /// Lets go of what the hub holds open; it opens again if the engine is used after.
    public func close() async { await hub.close() }

    /// The content of a segment of `device`'s log, or why it cannot be used (`SegmentContentError`):
    /// unreadable as a file, not authentic, not signed by `device` (by the keys of its card as this
    /// journal keeps it), or laid out in a way this journal does not know. A hub out
    /// of reach is not the segment's fault: that failure ends the sync as it is (a server restarting
    /// must not read as a corrupt segment).
    func open(_ segment: SegmentName, of device: DeviceID) async throws -> SegmentContent {
        let sealed: [UInt8]
        do { sealed = try await hub.read(segment, of: device) } catch SyncError.hub(let failure) where failure.condition == .unusableEntry {
            throw SegmentContentError(failure.reason, cause: .unusableFile)
        } catch SyncError.hub(let failure) where failure.condition == .gone {
            // The log moved on: no fault of the segment's. The pull lists that log again; any other
            // reader (this device's own log, checked) ends its sync, and the next one sees the log as it is.
            throw SyncError.hub(failure)
        } catch let error as SyncError {
            if error.hubCondition == .unreachable { throw error }
            throw SegmentContentError("it cannot be read (\(failureMessage(error)))")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw SegmentContentError("it cannot be read (\(failureMessage(error)))")
        }
        if let revocation = epochs.revoked[device], segment.last > revocation.through {
            throw SegmentContentError(revokedReason(device, revocation), cause: .pastRevocation)
        }
        let card = try await card(of: device)
        var author = SegmentAuthor(card: card)
        // This device knows its own keys, whether or not its card reached the hub.
        if device == store.deviceID { author.signingKey = deviceKeys.signing.publicKey }
        // A device with a card is taken while it is a member, and as far as a record vouches for its log
        // (a revoked one, as far as its revocation says); one without is a journal from before cards (its
        // unsigned segments), or one whose card is still on its way.
        let taken = epochs.takenThrough(device)
        if card != nil, device != store.deviceID, epochs.revoked[device] == nil, !membership.admits(device), segment.last > taken ?? 0 {
            throw SegmentContentError(notMemberReason(device), cause: .notAdmitted)
        }
        author.takenThrough = taken
        let keys = epochs.keys
        let opened = try SegmentSeal.open(sealed, keys: { keys[$0] }, author: author, hubID: hub.id, device: device, name: segment)
        return try SegmentCodec.decode(opened.plaintext, format: opened.format, device: device)
    }
}

/// Changes of a revoked device this journal applied past its revocation, before the revocation reached it.
public struct KeptChanges: Sendable, Equatable {
    public let device: DeviceID
    public let name: String
    /// The positions of its log applied past what the revocation took.
    public let from: Int64
    public let through: Int64
    public let revokedBy: String
    public let revokedAt: Timestamp

    /// What it is, for a person.
    public var sentence: String {
        "this journal applied what \(TerminalText.quoted(name)) published at positions \(from) to \(through), after \(TerminalText.quoted(revokedBy)) "
            + "revoked it on \(LocalTime.display(revokedAt)): the revocation had not reached this device yet. Those changes stay here and "
            + "nowhere else; `journal sql \"select * from drinks where origin = '\(device.rawValue)'\"` shows what that device wrote"
    }
}

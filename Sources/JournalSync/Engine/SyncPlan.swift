import JournalKit

/// What one sync does, decided before any I/O from what rang (`SyncScope`), what the engine learnt
/// before, what the hub allows and what the ledger says, the way the daemon's `LoopPolicy` decides its
/// loop: each wake reason maps to its work here, tested without a hub. `SyncEngine.sync` carries it out.
struct SyncPlan: Equatable {
    /// The logs to read first, alone, when a ring named them; the whole sync (`steps`) follows only when
    /// that read cannot settle what it finds. Nil: the whole sync, from the start.
    var rangLogs: Set<DeviceID>?
    /// The whole sync, in order.
    var steps: [Step]

    enum Step: Equatable {
        /// The hub's listing refreshed, its cards and key epochs read, the key settled, this device's
        /// keys checked against its card: what every later step relies on.
        case readCardsAndEpochs
        /// This device's own log on the hub against what this journal wrote (`checkOwnLog`).
        case checkOwnLog
        /// This device's first card that says it signs, before anything signed goes up.
        case announceSigning
        /// Publishing this device's changes; moving to this hub (`SyncLedger.isMoving`), every device's
        /// the hub lacks.
        case publish
        /// This device's log compacted, when due (`Compaction`).
        case compact(Compaction)
        /// Every other device's log read past its anchor.
        case pull
        /// What was applied of a revoked device past its revocation, said once.
        case noteKeptFromShutOut
        /// The cards read kept, and this device's written when it says something new.
        case writeCards
    }

    /// When this device's log is compacted.
    enum Compaction: Equatable {
        /// After a sync that wrote a segment: the counts the rule merges by change only with this
        /// device's changes, which a new segment publishes. A compaction cut short between two merges
        /// goes on after the next one.
        case afterWriting
        /// Whatever the sync writes: a compaction the process did not finish left a segment inside another.
        case always
    }

    /// The plan for a sync of `scope`. `wholeSyncDone`: the engine read cards, key epochs and
    /// membership before, which a log-only read relies on. `canRemoveSegments`: the hub lets a device
    /// replace its segments (a server's rows stay for good, and are never compacted).
    static func make(_ scope: SyncScope, own device: DeviceID, wholeSyncDone: Bool, canRemoveSegments: Bool, ledger: SyncLedger) -> SyncPlan {
        // A journal moving here reads the hub before it publishes, to relay only what the hub lacks.
        var steps: [Step] = [.readCardsAndEpochs, .checkOwnLog, .announceSigning] + (ledger.isMoving ? [.pull] : []) + [.publish]
        if canRemoveSegments { steps.append(.compact(ledger.hasNestedSegments ? .always : .afterWriting)) }
        steps += [.pull, .noteKeptFromShutOut, .writeCards]
        guard case .logs(let devices) = scope, wholeSyncDone else { return SyncPlan(rangLogs: nil, steps: steps) }
        return SyncPlan(rangLogs: devices.subtracting([device]), steps: steps)
    }
}

import JournalKit

/// The key epoch records a reading of the hub found: those the journal kept, those read now, and the
/// chain they make; and, once the chain is settled, what becomes of each record read now (`outcome`),
/// decided from it alone.
struct EpochRecordsRead {
    /// The records whose proof checked, kept in the journal, by file name.
    let kept: [String: [UInt8]]
    /// Every record parsed, kept or read now.
    var parsed: [KeyEpoch: EpochChain.Parsed] = [:]
    /// The records read now, with their bytes and fingerprints.
    var fetched: [KeyEpoch: (bytes: [UInt8], fingerprint: String)] = [:]
    /// Records that waited for their parent's key: read again once anything new comes.
    var waited: [HubListing<KeyEpoch>] = []
    var ownEpoch: KeyEpoch = .first
    var settled: EpochChain

    /// `kept` parsed; the chain is `key`'s alone until worked out.
    init(kept: [String: [UInt8]], hubID: HubID, key: SyncKey) {
        self.kept = kept
        for (name, bytes) in kept {
            guard let epoch = KeyEpoch(fileName: name), let record = try? EpochRecord.parse(bytes, as: epoch, hubID: hubID) else { continue }
            parsed[epoch] = record
        }
        settled = EpochChain(key: key)
    }

    /// What becomes of a record read now.
    enum Outcome: Equatable {
        /// Its proof checked: kept.
        case keep
        /// Refused, said once, never read again until it changes.
        case refuse(String)
        /// Made from a key not held yet: read again once more keys are held.
        case wait
    }

    /// How many records kept already each revoked device made.
    func keptByRevoked(_ chain: EpochChain) -> [DeviceID: Int] {
        var counts: [DeviceID: Int] = [:]
        for (epoch, record) in parsed where fetched[epoch] == nil && chain.revoked[record.record.maker] != nil {
            counts[record.record.maker, default: 0] += 1
        }
        return counts
    }

    /// What becomes of the record of `epoch` read now, in `chain`. A revoked device's records can only
    /// ever be refused: past `SyncEngine.recordsOfRevoked`, they are not kept (each costs every sync's
    /// reading of the records); `byRevoked` counts those kept so far.
    func outcome(of epoch: KeyEpoch, in chain: EpochChain, byRevoked: inout [DeviceID: Int]) -> Outcome {
        let maker = parsed[epoch]?.record.maker
        if chain.proved[epoch] != nil, chain.record(of: epoch) == nil, let maker, chain.revoked[maker] != nil,
            byRevoked[maker, default: 0] >= SyncEngine.recordsOfRevoked
        {
            return .refuse("it was made by a device revoked in key epoch \(chain.revoked[maker]?.by.epoch.description ?? "?"), and more of its "
                + "records than any hub needs are kept already")
        }
        if chain.proved[epoch] != nil {
            if let maker, chain.revoked[maker] != nil { byRevoked[maker, default: 0] += 1 }
            return .keep
        }
        if let parent = parsed[epoch]?.record.parent, chain.keys[parent] != nil {
            return .refuse("it was not made with the key of the epoch before it: not by a member of the hub")
        }
        return .wait
    }
}

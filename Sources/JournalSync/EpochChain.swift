import JournalKit

/// What a hub's key epochs come to, as one device sees them: which records are valid, which keys it
/// holds, which devices are shut out, and the epoch it seals under.
///
/// The rule every device applies alike: records are taken in (number, id) order; one is valid when
/// its parent is the first epoch or a valid record, its proof checks with the parent's key, its
/// signature with the key it names (its maker's card's, where that card is known), and no earlier
/// valid record revoked its maker. Revocations are the union
/// of the valid records'. A key is held when it is this device's own (the one it joined or last
/// synced with), is unwrapped for it from a valid record, or is a parent's key opened with a key
/// held. New segments and cards are sealed under the latest valid epoch whose key is held and that
/// no revoked device can reach (`exposed`); when there is none, a new epoch must be made first.
struct EpochChain: Sendable {
    /// The valid records, in order.
    private(set) var valid: [EpochRecord] = []
    /// The keys held, by epoch.
    private(set) var keys: [KeyEpoch: SyncKey]
    /// Each revoked device, with the record that revoked it and the last position taken of its log.
    private(set) var revoked: [DeviceID: (through: Int64, by: EpochRecord)] = [:]
    /// Records refused, and why: signed by another key than their maker's card names, or made by a
    /// device already revoked.
    private(set) var refused: [KeyEpoch: String] = [:]
    /// Two records whose makers revoked each other (the later in order refused for it): the hub's
    /// members disagree on who is shut out, which no rule of order settles safely (the one made later
    /// by a revoked device can be made to come first). Nothing is sealed until a person decides.
    private(set) var conflict: (EpochRecord, EpochRecord)?
    /// The epochs whose key a revoked device holds or can work out: those whose record wraps it for
    /// one or was made by one, the parent of each revocation (the revoked device was a member there),
    /// and every ancestor of these (a key opens its parent's). Two revocations made at once expose
    /// each other's epoch, as each new key went to the device the other shut out.
    private(set) var exposed: Set<KeyEpoch> = []

    /// A chain of the first epoch alone, whose key is `key`.
    init(key: SyncKey) { keys = [.first: key] }

    /// The chain the records on a hub make, for the device `device` (whose keys are `deviceKeys`)
    /// holding `own`, the key of `ownEpoch`; `signers` gives each device's signing key, from its card.
    ///
    /// A record is checked with its parent's key (its proof) and the signing key it names (which must
    /// be its maker's card's, where that card is known): a device reads a record before it can read
    /// the cards sealed under the record's key. Validity and keys are worked out together, each round
    /// with the keys the one before found, until no key more is found.
    init(
        records: [KeyEpoch: (record: EpochRecord, signed: EpochRecord.Signed)], own: SyncKey, ownEpoch: KeyEpoch,
        signers: [DeviceID: [UInt8]], device: DeviceID, deviceKeys: DeviceKeys, hubID: String
    ) {
        keys = [ownEpoch: own]
        let ordered = records.sorted { $0.key < $1.key }
        while true {
            // Keys reach further keys: a newer one opens its parent's (whatever the record's standing:
            // the seal authenticates it), and a valid record may wrap one for this device.
            var found = true
            while found {
                found = false
                // Newest first: one pass walks a chain down.
                for (epoch, (record, _)) in ordered.reversed() {
                    guard let key = keys[epoch], keys[record.parent] == nil, let parentKey = record.parentKey(given: key, hubID: hubID) else { continue }
                    keys[record.parent] = parentKey
                    found = true
                }
                for record in valid where keys[record.epoch] == nil {
                    guard let key = record.unwrap(for: device, keys: deviceKeys, hubID: hubID) else { continue }
                    keys[record.epoch] = key
                    found = true
                }
            }
            let held = keys.count
            settle(ordered, signers: signers)
            for record in valid where keys[record.epoch] == nil {
                if let key = record.unwrap(for: device, keys: deviceKeys, hubID: hubID) { keys[record.epoch] = key }
            }
            if keys.count == held { break }
        }
        expose(ordered)
    }

    /// Works out `exposed`, from the records proved made with their parent's key (a record anyone could
    /// write names a parent and recipients it cannot vouch for: it exposes nothing).
    private mutating func expose(_ ordered: [(key: KeyEpoch, value: (record: EpochRecord, signed: EpochRecord.Signed))]) {
        exposed = []
        guard !revoked.isEmpty else { return }
        var parents: [KeyEpoch: KeyEpoch] = [:]
        var reachable: [KeyEpoch] = valid.filter { !$0.revoked.isEmpty }.map(\.parent)
        for (epoch, (record, signed)) in ordered {
            guard let parentKey = keys[record.parent], signed.isProved(by: parentKey) else { continue }
            parents[epoch] = record.parent
            if revoked[record.maker] != nil || record.reaches.contains(where: { revoked[$0] != nil }) { reachable.append(epoch) }
        }
        for epoch in reachable {
            var next: KeyEpoch? = epoch
            while let epoch = next, exposed.insert(epoch).inserted { next = parents[epoch] }
        }
    }

    /// Works out which records are valid, in (number, id) order, with the keys held: one whose
    /// parent's key is not held yet waits, as one whose parent is not valid does.
    private mutating func settle(_ ordered: [(key: KeyEpoch, value: (record: EpochRecord, signed: EpochRecord.Signed))], signers: [DeviceID: [UInt8]]) {
        valid = []
        revoked = [:]
        refused = [:]
        conflict = nil
        var validEpochs: Set<KeyEpoch> = [.first]
        for (epoch, (record, signed)) in ordered {
            guard validEpochs.contains(record.parent), let parentKey = keys[record.parent] else { continue }
            guard signed.isProved(by: parentKey) else {
                refused[epoch] = "it was not made with the key of the epoch before it: not by a member of the hub"
                continue
            }
            if let known = signers[record.maker], known != record.makerSigningKey {
                refused[epoch] = "it names other keys than its maker's card: it was not made by that device"
                continue
            }
            guard signed.verifies(by: record.makerSigningKey) else {
                refused[epoch] = "its signature does not verify against the key it names: it was altered"
                continue
            }
            if let shutOut = revoked[record.maker] {
                refused[epoch] = "its maker was revoked in key epoch \(shutOut.by.epoch) before it"
                if record.revoked.contains(where: { $0.device == shutOut.by.maker }), conflict == nil { conflict = (shutOut.by, record) }
                continue
            }
            validEpochs.insert(epoch)
            valid.append(record)
            for revocation in record.revoked where revoked[revocation.device] == nil {
                revoked[revocation.device] = (revocation.through, record)
            }
        }
    }

    /// The valid records whose key no revoked device can reach: a rotation made at the moment another
    /// device revoked one (the two records siblings) still wraps for it, a revoked device knows the
    /// key of a record it made before its revocation in order, and nothing is sealed under these.
    var eligible: [EpochRecord] { valid.filter { !exposed.contains($0.epoch) } }

    /// The epoch new segments and cards are sealed under: the latest eligible one whose key is held;
    /// the first when none is (which `needsNewEpoch` tells apart from a hub without revocations).
    var current: KeyEpoch { eligible.map(\.epoch).filter { keys[$0] != nil }.max() ?? .first }

    /// True when every key held is within a revoked device's reach: nothing may be sealed until a new
    /// epoch is made, from `nextParent`, for the members only.
    var needsNewEpoch: Bool { exposed.contains(current) }

    /// The epoch the next record is made from: the current one, or, when it is exposed, the latest
    /// valid one held (whose key the new one seals, as every record seals its parent's).
    var nextParent: KeyEpoch { needsNewEpoch ? (valid.map(\.epoch).filter { keys[$0] != nil }.max() ?? .first) : current }

    /// The latest eligible record, held or not.
    var latest: EpochRecord? { eligible.max { $0.epoch < $1.epoch } }

    /// The record of `epoch`, when it is valid.
    func record(of epoch: KeyEpoch) -> EpochRecord? { valid.first { $0.epoch == epoch } }

    /// The devices the next epoch's key goes to, less the revoked: those the current epoch's record
    /// reached (when it is exposed, those any valid record of a device not revoked reached), and those
    /// whose card is sealed under its key or a later one (they joined with it). A card sealed under an
    /// older key is not enough: whoever was shut out still holds that key; nor is one whose epoch
    /// number an exposed epoch has too, as a card names its epoch by number only.
    func members(cards: [DeviceCard]) -> [DeviceCard] {
        let current = current
        let reached = Set(needsNewEpoch
            ? valid.filter { revoked[$0.maker] == nil }.flatMap(\.reaches)
            : record(of: current)?.reaches ?? [])
        let exposedThrough = exposed.map { Int64($0.number) }.max() ?? -1
        return cards.filter { card in
            revoked[card.device] == nil
                && (reached.contains(card.device) || (card.epoch >= Int64(current.number) && card.epoch > exposedThrough))
        }
    }
}

import JournalKit

/// What a hub's key epochs come to, as one device sees them: which records are valid, which keys it
/// holds, which devices are shut out, and the epoch it seals under.
///
/// The rule every device applies alike, records taken in (number, id) order:
/// - a record stands when its parent is the first epoch or a record that stands, its proof checks
///   with the parent's key, and its signature with the key it names (its maker's card's, where that
///   card is known);
/// - a revocation keeps the devices it wraps the new key for, each by the signing key it names. A
///   record made beside it (not one of its ancestors) from an epoch a device it shut out can reach
///   must be made by a device it keeps: anyone else may be that device under another name, holding
///   the old key. Such a record is refused; two revocations each made by a device the other does not
///   keep stop every member (`conflict`), as no rule of order settles which is the thief's;
/// - a record made by a device an earlier valid record revoked is refused;
/// - revocations are the union of the valid records'.
///
/// A key is held when it is this device's own (the one it joined or last synced with), is unwrapped
/// for it from a valid record, or is a parent's key opened with a key held (and matching the parent's
/// check). New segments and cards are sealed under the latest valid epoch whose key is held and that
/// no revoked device can reach (`exposed`); when there is none, a new epoch must be made first.
struct EpochChain: Sendable {
    typealias Parsed = (record: EpochRecord, signed: EpochRecord.Signed)

    /// The valid records, in order.
    private(set) var valid: [EpochRecord] = []
    /// The keys held, by epoch.
    private(set) var keys: [KeyEpoch: SyncKey]
    /// Each revoked device, with the record that revoked it and the last position taken of its log.
    private(set) var revoked: [DeviceID: (through: Int64, by: EpochRecord)] = [:]
    /// Records refused, and why.
    private(set) var refused: [KeyEpoch: String] = [:]
    /// Two revocations whose makers shut each other out, directly or each by making its record beside
    /// the other's: the hub's members disagree on who is shut out. Nothing is sealed until a person
    /// decides.
    private(set) var conflict: (EpochRecord, EpochRecord)?
    /// The epochs whose key a revoked device holds or can work out: those whose record wraps it for
    /// one or was made by one, the parent of each revocation (the revoked device was a member there),
    /// and every ancestor of these (a key opens its parent's). Two revocations made at once expose
    /// each other's epoch, as each new key went to the device the other shut out.
    private(set) var exposed: Set<KeyEpoch> = []

    /// The epochs whose key admits a device now: a card sealed under one proves its device was given
    /// the key by a member. Those valid (the first epoch among them), that no revoked device can reach
    /// and that no valid record replaced: a key a newer one replaced may be a leaked one.
    private(set) var admitting: Set<KeyEpoch> = [.first]

    /// Each record whose proof checked, by epoch, with its parent: the links a key can be followed
    /// down, whatever the record's standing.
    private(set) var proved: [KeyEpoch: EpochRecord] = [:]

    /// A chain of the first epoch alone, whose key is `key`.
    init(key: SyncKey) { keys = [.first: key] }

    /// The chain the records on a hub make, for the device `device` (whose keys are `deviceKeys`)
    /// holding `own`, the key of `ownEpoch`; `firstKeyCheck` is the check of the hub's first key,
    /// and `signers` gives each device's signing key, from its card.
    ///
    /// A record is checked with its parent's key (its proof) and the signing key it names (which must
    /// be its maker's card's, where that card is known): a device reads a record before it can read
    /// the cards sealed under the record's key. Validity and keys are worked out together, each round
    /// with the keys the one before found, until no key more is found; each proof and signature is
    /// checked once.
    init(
        records: [KeyEpoch: Parsed], own: SyncKey, ownEpoch: KeyEpoch, firstKeyCheck: String,
        signers: [DeviceID: [UInt8]], device: DeviceID, deviceKeys: DeviceKeys, hubID: HubID
    ) {
        keys = [ownEpoch: own]
        let ordered = records.sorted { $0.key < $1.key }
        var checks = Checks()
        while true {
            // Keys reach further keys: a newer one opens its parent's (whatever the record's standing:
            // the seal authenticates it, and the parent's check confirms it), and a record may wrap one
            // for this device: whatever its standing too, as a device left out of one epoch is given the
            // next one's key by a record it can check only with the key it unwraps (a key held says
            // nothing of standing: what is sealed under it, and who is admitted, follow the valid records).
            var found = true
            while found {
                found = false
                // Newest first: one pass walks a chain down.
                for (epoch, (record, _)) in ordered.reversed() {
                    guard let key = keys[epoch], keys[record.parent] == nil, let parentKey = record.parentKey(given: key, hubID: hubID),
                        parentKey.check == (record.parent == .first ? firstKeyCheck : records[record.parent]?.record.keyCheck)
                    else { continue }
                    keys[record.parent] = parentKey
                    found = true
                }
                for (epoch, (record, _)) in ordered where keys[epoch] == nil {
                    guard let key = record.unwrap(for: device, keys: deviceKeys, hubID: hubID) else { continue }
                    keys[epoch] = key
                    found = true
                }
            }
            let held = keys.count
            settle(ordered, signers: signers, checks: &checks)
            if keys.count == held { break }
        }
        expose()
    }

    /// Proofs and signatures already checked, by epoch: a proof depends on the parent's key alone,
    /// which once held never changes.
    private struct Checks {
        var proofs: [KeyEpoch: Bool] = [:]
        var signatures: [KeyEpoch: Bool] = [:]

        mutating func isProved(_ epoch: KeyEpoch, _ signed: EpochRecord.Signed, by parentKey: SyncKey) -> Bool {
            if let known = proofs[epoch] { return known }
            let proved = signed.isProved(by: parentKey)
            proofs[epoch] = proved
            return proved
        }

        mutating func verifies(_ epoch: KeyEpoch, _ record: EpochRecord, _ signed: EpochRecord.Signed) -> Bool {
            if let known = signatures[epoch] { return known }
            let verifies = signed.verifies(by: record.makerSigningKey)
            signatures[epoch] = verifies
            return verifies
        }
    }

    /// Works out which records are valid with the keys held: one whose parent's key is not held yet
    /// waits, as one whose parent is not valid does.
    private mutating func settle(_ ordered: [(key: KeyEpoch, value: Parsed)], signers: [DeviceID: [UInt8]], checks: inout Checks) {
        refused = [:]
        proved = [:]
        conflict = nil
        // Each record on its own.
        var standing: [EpochRecord] = []
        var stands: Set<KeyEpoch> = [.first]
        for (epoch, (record, signed)) in ordered {
            guard let parentKey = keys[record.parent] else { continue }
            guard checks.isProved(epoch, signed, by: parentKey) else {
                if stands.contains(record.parent) { refused[epoch] = "it was not made with the key of the epoch before it: not by a member of the hub" }
                continue
            }
            proved[epoch] = record
            guard stands.contains(record.parent) else { continue }
            if let known = signers[record.maker], known != record.makerSigningKey {
                refused[epoch] = "it names other keys than its maker's card: it was not made by that device"
                continue
            }
            guard checks.verifies(epoch, record, signed) else {
                refused[epoch] = "its signature does not verify against the key it names: it was altered"
                continue
            }
            stands.insert(epoch)
            standing.append(record)
        }
        let madeBeside = madeBeside(standing)
        let violated = violations(standing, madeBeside: madeBeside)
        // The records themselves, in order.
        valid = []
        revoked = [:]
        var validEpochs: Set<KeyEpoch> = [.first]
        for record in standing where validEpochs.contains(record.parent) {
            if let revocation = violated[record.epoch] {
                refused[record.epoch] = "it was made beside the revocation of key epoch \(revocation.epoch), by a device that revocation does "
                    + "not keep: the device it shut out could have made it under another name"
                continue
            }
            if let shutOut = revoked[record.maker] {
                refused[record.epoch] = "its maker was revoked in key epoch \(shutOut.by.epoch) before it"
                if record.revoked.contains(where: { $0.device == shutOut.by.maker }), conflict == nil { conflict = (shutOut.by, record) }
                continue
            }
            validEpochs.insert(record.epoch)
            valid.append(record)
            for revocation in record.revoked where revoked[revocation.device] == nil {
                revoked[revocation.device] = (revocation.through, record)
            }
        }
    }

    /// For each revocation among `standing`, the records it finds made beside it by a device it does
    /// not keep: not one of its ancestors, from an epoch a device it shuts out can reach.
    private func madeBeside(_ standing: [EpochRecord]) -> [KeyEpoch: [EpochRecord]] {
        var found: [KeyEpoch: [EpochRecord]] = [:]
        for revocation in standing where !revocation.revoked.isEmpty {
            let reachable = reach(of: Set(revocation.revoked.map(\.device)), from: [revocation.parent])
            let ancestors = lineage(of: [revocation.epoch])
            found[revocation.epoch] = standing.filter { record in
                !ancestors.contains(record.epoch) && reachable.contains(record.parent)
                    && !revocation.keeps(record.maker, signingWith: record.makerSigningKey)
            }
        }
        return found
    }

    /// Which revocation each record is refused by. A revocation refuses only while it stands itself
    /// (it violates no revocation that stands): worked out again until nothing changes, which a cycle
    /// of revocations each made beside the next never reaches (a conflict, as two made beside each
    /// other are).
    private mutating func violations(_ standing: [EpochRecord], madeBeside: [KeyEpoch: [EpochRecord]]) -> [KeyEpoch: EpochRecord] {
        let revocations = standing.filter { !$0.revoked.isEmpty }
        for first in revocations {
            for second in madeBeside[first.epoch] ?? [] where madeBeside[second.epoch]?.contains(where: { $0.epoch == first.epoch }) ?? false {
                conflict = (first, second)
                return [:]
            }
        }
        var refusing = Set(revocations.map(\.epoch))
        for _ in 0...revocations.count {
            var violated: [KeyEpoch: EpochRecord] = [:]
            for revocation in revocations where refusing.contains(revocation.epoch) {
                for record in madeBeside[revocation.epoch] ?? [] where violated[record.epoch] == nil { violated[record.epoch] = revocation }
            }
            let next = Set(revocations.filter { lineage(of: [$0.epoch]).allSatisfy { violated[$0] == nil } }.map(\.epoch))
            if next == refusing { return violated }
            refusing = next
        }
        for revocation in revocations {
            if let other = madeBeside[revocation.epoch]?.first(where: { !$0.revoked.isEmpty }) {
                conflict = (revocation, other)
                break
            }
        }
        return [:]
    }

    /// `epochs` and all their ancestors, following the proved records down.
    private func lineage(of epochs: [KeyEpoch]) -> Set<KeyEpoch> {
        var found: Set<KeyEpoch> = []
        for epoch in epochs {
            var next: KeyEpoch? = epoch
            while let epoch = next, found.insert(epoch).inserted { next = proved[epoch]?.parent }
        }
        return found
    }

    /// The epochs whose key one of `devices` can reach: `from`, those whose proved record wraps the key
    /// for one of them or was made by one, and every ancestor of these.
    private func reach(of devices: Set<DeviceID>, from start: [KeyEpoch]) -> Set<KeyEpoch> {
        let held = proved.values.filter { devices.contains($0.maker) || $0.reaches.contains(where: devices.contains) }.map(\.epoch)
        return lineage(of: start + held)
    }

    /// Works out `exposed`, from the valid revocations, and with it `admitting`.
    private mutating func expose() {
        exposed = revoked.isEmpty ? [] : reach(of: Set(revoked.keys), from: valid.filter { !$0.revoked.isEmpty }.map(\.parent))
        admitting = Set(valid.map(\.epoch)).union([.first]).subtracting(valid.map(\.parent)).subtracting(exposed)
    }

    /// True when a valid record that admits now (`admitting`), made by a device not revoked, gave its
    /// key to `device` knowing it by `signingKey`: a device its maker took for a member, whose card
    /// may still be sealed under the key before.
    func givesCurrentKey(to device: DeviceID, signingWith signingKey: [UInt8]) -> Bool {
        valid.contains { admitting.contains($0.epoch) && revoked[$0.maker] == nil && $0.keeps(device, signingWith: signingKey) }
    }

    /// How far `device`'s log is taken whatever comes after (`EpochRecord.taken`): its unsigned segments,
    /// and all of it while it is no member. Without limit while the hub has no valid record (the first
    /// key is then the only key, held by members alone); after, as far as a valid record of a maker not
    /// revoked vouches for it, as whoever held the first key could write an unsigned segment, and a
    /// device that is no member now may have been one.
    func takenThrough(_ device: DeviceID) -> Int64? {
        guard !valid.isEmpty else { return nil }
        return valid.filter { revoked[$0.maker] == nil }.compactMap { $0.taken[device] }.max() ?? 0
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
}

import JournalKit

/// Whom a new key epoch made by `device` is wrapped for, and whom it leaves out and why, decided from
/// the chain and the cards alone: the devices reached from `device` through the vouches of devices
/// neither revoked nor being revoked (`Membership.vouched`), nearest first, at most
/// `EpochRecord.maximumReached`, whose keys can be wrapped for.
struct EpochWrap {
    /// The devices the key is wrapped for, with their keys, `device` among them.
    private(set) var members: [DeviceID: DevicePublicKeys]
    /// The devices admitted or reached before that the key leaves out, and why.
    private(set) var leftOut: [(device: DeviceID, reason: NewEpoch.Reason)] = []
    /// No vouch reaches another device from `device` (one that joined with an invitation a moment ago),
    /// though other members are admitted: a key made now would reach it alone.
    let reachesOnlyItself: Bool

    init(chain: EpochChain, cards: [DeviceCard], device: DeviceID, keys: DevicePublicKeys, revoking: Set<DeviceID>, admitted: Set<DeviceID>) {
        let byDevice = Dictionary(cards.map { ($0.device, $0) }, uniquingKeysWith: { _, last in last })
        let reachedBefore = Membership.vouched(chain: chain, cards: cards, device: device, revoking: [])
        let reached = Membership.vouched(chain: chain, cards: cards, device: device, revoking: revoking)
        reachesOnlyItself = reachedBefore.count == 1 && !admitted.subtracting(revoking).subtracting([device]).isEmpty
        members = [device: keys]
        for other in reached where other != device {
            guard let card = byDevice[other] else { continue }
            if let problem = card.publicKeys.problem {
                leftOut.append((other, .unusableKeys(problem)))
            } else if members.count >= EpochRecord.maximumReached {
                leftOut.append((other, .beyondLimit))
            } else {
                members[other] = card.publicKeys
            }
        }
        let onlyThroughRevoked = Set(reachedBefore).subtracting(reached).subtracting(revoking)
        for other in admitted.union(onlyThroughRevoked).subtracting(members.keys).subtracting(revoking).sorted()
        where !leftOut.contains(where: { $0.device == other }) {
            leftOut.append((other, onlyThroughRevoked.contains(other) ? .vouchedOnlyByRevoked : .unvouched))
        }
    }
}

import JournalKit

/// Who is a member of the hub, as one device works it out from the key epochs and the cards it keeps.
///
/// Holding a key proves little once a revoked device can reach it, so membership rests on two proofs
/// a revoked device cannot make:
/// - **admitted** (whose cards and segments are taken): this device; a device whose card is sealed
///   under a key that admits now (`EpochChain.admitting`: valid, beyond every revoked device's reach,
///   and not replaced), so it proved it was given the current key; a device a valid record that admits
///   now gave its key to; and every device one of those vouches for in its card, in turn.
/// - **vouched for** (whom a new epoch's key goes to): the devices reached from this device through
///   the vouches in the cards of devices that are not shut out, nearest first. A device vouches for
///   the devices it found when it first wrote a card of this kind (those it took as members then),
///   the device whose invitation it joined with, and the devices that joined with one of its own
///   invitations. A device that joined with the key alone is admitted while that key admits, but
///   nobody vouches for it: it could be anyone's who held the key, a revoked device's included, so a
///   new key leaves it out unless a person keeps it (`--keep`).
///
/// Revoking a device takes its vouches out: every device that only it vouched for (the devices it made
/// up while a member, say) goes with it.
struct Membership: Sendable {
    /// The device working it out.
    let device: DeviceID
    /// Whose cards and segments are taken.
    let admitted: Set<DeviceID>
    /// Whom a new epoch's key goes to, nearest first.
    let vouched: [DeviceID]

    /// Membership as `chain` and `cards` (the cards kept, this device's own among them) make it for
    /// `device`.
    init(chain: EpochChain, cards: [DeviceCard], device: DeviceID) {
        self.device = device
        let graph = VouchGraph(cards: cards, shutOut: Set(chain.revoked.keys))
        var base = [device]
        for card in graph.cards.values.sorted(by: { $0.device < $1.device }) where card.device != device {
            let provedKey = card.sealedEpoch.flatMap(KeyEpoch.init(text:)).map(chain.admitting.contains) ?? false
            if provedKey || chain.givesCurrentKey(to: card.device, signingWith: card.signingKey) { base.append(card.device) }
        }
        admitted = Set(graph.reached(from: base))
        vouched = graph.reached(from: [device])
    }

    /// Whom a new key goes to once `revoking` are shut out too: the devices reached from `device`
    /// through the vouches of devices neither revoked nor being revoked, nearest first.
    static func vouched(chain: EpochChain, cards: [DeviceCard], device: DeviceID, revoking: Set<DeviceID>) -> [DeviceID] {
        VouchGraph(cards: cards, shutOut: Set(chain.revoked.keys).union(revoking)).reached(from: [device])
    }

    /// True when `device`'s cards and segments are taken.
    func admits(_ device: DeviceID) -> Bool { admitted.contains(device) }

    /// How `device` stands, for `journal sync devices`.
    func standing(of device: DeviceID) -> MemberStanding {
        vouched.contains(device) ? .vouched : admitted.contains(device) ? .byKey : .outside
    }
}

/// How a device stands in the hub, as `journal sync devices` says it.
public enum MemberStanding: String, Sendable {
    /// Reached through the members' vouches: a new key goes to it.
    case vouched
    /// Admitted by the key it joined with alone: taken while that key admits, but a new key leaves it
    /// out unless a person keeps it.
    case byKey = "by-key"
    /// Not a member: nothing it publishes is taken.
    case outside
}

/// The vouches of the cards of devices not shut out, as edges to follow.
struct VouchGraph {
    let cards: [DeviceID: DeviceCard]

    init(cards: [DeviceCard], shutOut: Set<DeviceID>) {
        let shutOut = Self.withSuccessors(shutOut, cards: cards)
        var byDevice: [DeviceID: DeviceCard] = [:]
        for card in cards where !shutOut.contains(card.device) { byDevice[card.device] = card }
        self.cards = byDevice
    }

    /// `shutOut` and every device that took over, in turn, from one of them (`DeviceCard.succeeds`):
    /// a hand-over is its maker's word, and goes with it when it is shut out.
    static func withSuccessors(_ shutOut: Set<DeviceID>, cards: [DeviceCard]) -> Set<DeviceID> {
        var all = shutOut
        while true {
            let more = cards.filter { card in card.succeeds.map { all.contains($0.device) } == true && !all.contains(card.device) }
            if more.isEmpty { return all }
            all.formUnion(more.map(\.device))
        }
    }

    /// The devices `member` vouches for, each only by the keys its own card shows.
    private func vouchedBy(_ member: DeviceID) -> [DeviceID] {
        (cards[member]?.vouches ?? []).filter { vouch in
            vouch.device != member && cards[vouch.device]?.signingKey == vouch.signingKey
        }.map(\.device).sorted()
    }

    /// `start` and every device reached from it through vouches, breadth first: nearest first.
    func reached(from start: [DeviceID]) -> [DeviceID] {
        var seen = Set(start)
        var order = start.filter { cards[$0] != nil || $0 == start.first }
        var next = 0
        while next < order.count {
            for found in vouchedBy(order[next]) where seen.insert(found).inserted { order.append(found) }
            next += 1
        }
        return order
    }
}

/// Why a new key did not reach this device.
public enum LeftOutOfKey: Sendable, Equatable {
    /// A member vouches for it, but its card had not reached the device that made the key.
    case cardNotSeen
    /// Only revoked devices (their names) vouched for it: left out on purpose, as such a device may
    /// have made it up. `thisDevice` is its name, for `--keep`.
    case vouchedOnlyByRevoked([String], thisDevice: String)
    /// No member vouches for it: it joined with the key alone.
    case unvouched(thisDevice: String)
}

import JournalKit
import JournalSync
import Synchronization

/// One look at a WebDAV hub for the daemon's poll (`HubPoll`): it lists the hub's top (one PROPFIND,
/// `Depth: 1`) and compares each member's fingerprint with the look before. A segment moves its
/// device's folder, a key epoch `epochs/`, a new device the top's own list; a card's refresh moves
/// `cards/` and a segment's claim `claims/`, which are the devices' housekeeping, not a person's change,
/// but for a card of a new name: a device that joined, whose inviter vouches for it at its next sync.
final class DAVTopLook: Sendable {
    let hub: WebDAVHub
    let ownDevice: DeviceID
    let clock: any JournalClock
    /// The fingerprints of the last look; nil before the first.
    private let seen = Mutex<[String: String]?>(nil)
    /// The names in `cards/` when it last moved (or at the first look).
    private let cardNames = Mutex<Set<String>>([])

    init(hub: WebDAVHub, ownDevice: DeviceID, clock: any JournalClock) {
        self.hub = hub
        self.ownDevice = ownDevice
        self.clock = clock
    }

    func look() async throws -> PolledChange {
        let now = try await fingerprints()
        let before = seen.withLock { seen in
            defer { seen = now }
            return seen
        }
        var change = before.map { Self.change(from: $0, to: now, ownDevice: ownDevice) } ?? .nothing
        if before == nil || before?[HubLayout.cards] != now[HubLayout.cards] {
            let names = Set(try await hub.list([HubLayout.cards])?.members.keys.map { $0 } ?? [])
            let known = cardNames.withLock { known in
                defer { known = names }
                return known
            }
            if before != nil { change = change.merged(with: Self.change(ofCards: known, to: names)) }
        }
        if case .others = change { hub.state.with { $0.lastRing = clock.now() } }
        return change
    }

    /// What a move of `cards/` means: a card of a new name is a device that joined; cards rewritten,
    /// or gone, are housekeeping.
    static func change(ofCards before: Set<String>, to now: Set<String>) -> PolledChange {
        now.isSubset(of: before) ? .housekeeping : .others(device: nil)
    }

    /// What moved between two looks at the top, as a decision apart from the listing.
    static func change(from before: [String: String], to now: [String: String], ownDevice: DeviceID) -> PolledChange {
        let moved = Set(now.keys).union(before.keys).filter { now[$0] != before[$0] }
        return moved.reduce(PolledChange.nothing) { found, name in found.merged(with: change(of: name, ownDevice: ownDevice)) }
    }

    /// What a move of the top's member `name` means.
    static func change(of name: String, ownDevice: DeviceID) -> PolledChange {
        switch name {
        case HubLayout.cards, WebDAVHub.claims: return .housekeeping
        case ownDevice.rawValue: return .own
        default: return .others(device: DeviceID(canonical: name))
        }
    }

    /// Each member of the hub's top with its fingerprint; one that had not settled when listed gets a
    /// mark of its own, so that the next listing sees it move again (a second change within the same
    /// second leaves a time to the second as it was).
    private func fingerprints() async throws -> [String: String] {
        let top = try await hub.top(fresh: true)
        var prints: [String: String] = [:]
        for (name, entry) in top.members {
            prints[name] = top.isSettled(entry) ? entry.fingerprint : "unsettled " + entry.fingerprint + " " + UUIDText.random()
        }
        return prints
    }
}

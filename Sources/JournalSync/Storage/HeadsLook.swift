import JournalKit
import Synchronization

/// One look at a hub on a store for the daemon's poll (`HubPoll`): one listing of `heads/`, each head
/// compared with the look before. A device rewrites its head after each segment it adds, and makes it
/// when it joins; `heads/epochs` moves with a new key epoch. Cards' refreshes and compaction move no
/// head: they are the devices' housekeeping, which the next sync reads.
final class HeadsLook: Sendable {
    let hub: StorageHub
    let ownDevice: DeviceID
    let clock: any JournalClock
    /// The heads' tags at the last look; nil before the first.
    private let seen = Mutex<[String: String]?>(nil)

    init(hub: StorageHub, ownDevice: DeviceID, clock: any JournalClock) {
        self.hub = hub
        self.ownDevice = ownDevice
        self.clock = clock
    }

    func look() async throws -> PolledChange {
        let prefix = StorageHub.headsPrefix
        var now: [String: String] = [:]
        for object in try await hub.storage.listAll(prefix: prefix) {
            if let name = StoredName.relative(object.name, to: prefix) { now[name] = object.tag }
        }
        let before = seen.withLock { seen in
            defer { seen = now }
            return seen
        }
        let change = before.map { Self.change(from: $0, to: now, ownDevice: ownDevice) } ?? .nothing
        if case .others = change { hub.state.withLock { $0.lastRing = clock.now() } }
        return change
    }

    /// What moved between two looks, as a decision apart from the listing: this device's head is its
    /// own change; another's that moved names that device's log; a head that is new (a device that
    /// joined, whose card its inviter reads), `heads/epochs`, or any other name calls for a whole sync.
    static func change(from before: [String: String], to now: [String: String], ownDevice: DeviceID) -> PolledChange {
        let moved = Set(now.keys).union(before.keys).filter { now[$0] != before[$0] }
        return moved.reduce(PolledChange.nothing) { found, name in
            let change: PolledChange
            if name == ownDevice.rawValue {
                change = .own
            } else if before[name] != nil, now[name] != nil, let device = DeviceID(canonical: name) {
                change = .others(device: device)
            } else {
                change = .others(device: nil)
            }
            return found.merged(with: change)
        }
    }
}

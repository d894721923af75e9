import Foundation
import JournalKit

@testable import FolderHub
@testable import JournalSync

/// A hub as a sync tool (Syncthing, Dropbox) shows it to each machine: a machine sees its own log as
/// it writes it, and every other device's log as the tool has delivered it so far: file by file, in
/// any order, new segments and removals mixed.
final class LaggingHubs: @unchecked Sendable {
    private let lock = NSLock()
    /// What each device's log holds on the machine that writes it.
    private var truth: [DeviceID: [SegmentName: [UInt8]]] = [:]
    /// Per machine (by its device), the other logs as delivered there.
    private var delivered: [DeviceID: [DeviceID: [SegmentName: [UInt8]]]] = [:]
    /// Per machine, the changes still on their way to it.
    private var pending: [DeviceID: [Change]] = [:]
    /// Each device's card, seen by every machine as soon as it is written.
    private var cards: [DeviceID: [UInt8]] = [:]
    private var epochRecords: [KeyEpoch: [UInt8]] = [:]
    let id = HubID.random()
    /// The check of the key the hub is made with.
    let firstKeyCheck: String

    init(key: SyncKey) { firstKeyCheck = key.check }

    enum Change {
        case added(DeviceID, SegmentName, [UInt8])
        case removed(DeviceID, SegmentName)
    }

    /// The hub as `machine` sees it.
    func view(for machine: DeviceID) -> LaggingHub {
        lock.withLock {
            if delivered[machine] == nil { delivered[machine] = [:] }
            if pending[machine] == nil { pending[machine] = [] }
        }
        return LaggingHub(hubs: self, machine: machine)
    }

    /// Delivers up to `count` of the changes on their way to `machine`, picked at random.
    func deliver(_ count: Int, to machine: DeviceID, using generator: inout some RandomNumberGenerator) {
        lock.withLock {
            for _ in 0..<count {
                guard var queue = pending[machine], !queue.isEmpty else { return }
                let change = queue.remove(at: Int.random(in: 0..<queue.count, using: &generator))
                pending[machine] = queue
                switch change {
                case .added(let device, let name, let bytes): delivered[machine, default: [:]][device, default: [:]][name] = bytes
                case .removed(let device, let name): delivered[machine, default: [:]][device]?[name] = nil
                }
            }
        }
    }

    /// Delivers everything still on its way, everywhere.
    func deliverAll() {
        var generator = SystemRandomNumberGenerator()
        for machine in lock.withLock({ Array(pending.keys) }) { deliver(.max, to: machine, using: &generator) }
    }

    fileprivate func files(of device: DeviceID, seenBy machine: DeviceID) -> [SegmentName: [UInt8]] {
        lock.withLock { device == machine ? truth[device] ?? [:] : delivered[machine]?[device] ?? [:] }
    }

    fileprivate func allCards() -> [DeviceID: [UInt8]] { lock.withLock { cards } }

    fileprivate func putCard(_ bytes: [UInt8], of device: DeviceID) { lock.withLock { cards[device] = bytes } }

    fileprivate func allEpochRecords() -> [KeyEpoch: [UInt8]] { lock.withLock { epochRecords } }

    fileprivate func putEpochRecord(_ bytes: [UInt8], as epoch: KeyEpoch) { lock.withLock { epochRecords[epoch] = bytes } }

    fileprivate func devices(seenBy machine: DeviceID) -> [DeviceID] {
        lock.withLock {
            var seen = Set(delivered[machine]?.filter { !$0.value.isEmpty }.keys ?? [:].keys)
            if truth[machine] != nil { seen.insert(machine) }
            return seen.sorted()
        }
    }

    fileprivate func record(_ change: Change, by writer: DeviceID) {
        lock.withLock {
            switch change {
            case .added(let device, let name, let bytes): truth[device, default: [:]][name] = bytes
            case .removed(let device, let name): truth[device]?[name] = nil
            }
            for machine in pending.keys where machine != writer { pending[machine]?.append(change) }
        }
    }
}

/// One machine's view of `LaggingHubs`.
struct LaggingHub: Hub {
    let hubs: LaggingHubs
    let machine: DeviceID

    var id: HubID { hubs.id }
    var location: String { "lagging hub" }
    var firstKeyCheck: String { hubs.firstKeyCheck }
    var canRemoveSegments: Bool { true }
    var segmentsNeverChange: Bool { false }
    func refresh(after positions: [DeviceID: Int64]) {}

    func devices() throws -> [DeviceID] { hubs.devices(seenBy: machine) }

    func log(of device: DeviceID) throws -> DeviceLog {
        let files = hubs.files(of: device, seenBy: machine)
        return DeviceLog(segments: files.keys.sorted().map { SegmentEntry(name: $0, fingerprint: "\(files[$0]!.hashValue)") })
    }

    func read(_ segment: SegmentName, of device: DeviceID) throws -> [UInt8] {
        guard let bytes = hubs.files(of: device, seenBy: machine)[segment] else {
            throw SyncError.hubUnavailable(hub: location, reason: "\(segment) is gone")
        }
        return bytes
    }

    func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) throws -> String {
        guard hubs.files(of: device, seenBy: machine)[segment] == nil else { throw SyncError.segmentExists(segment.fileName) }
        hubs.record(.added(device, segment, bytes), by: machine)
        return "\(bytes.hashValue)"
    }

    func remove(_ segment: SegmentName, of device: DeviceID) throws { hubs.record(.removed(device, segment), by: machine) }
    func setAside(_ name: String, of device: DeviceID) throws {}
    func removeLeftovers(of device: DeviceID) throws {}
    func cardList(after: DeviceID?, limit: Int) -> [HubListing<DeviceID>] {
        Self.page(hubs.allCards(), after: after, limit: limit)
    }
    func cards(of devices: [DeviceID]) -> [DeviceID: Result<[UInt8], SyncError>] {
        hubs.allCards().filter { devices.contains($0.key) }.mapValues { .success($0) }
    }
    func writeCard(_ bytes: [UInt8], of device: DeviceID) { hubs.putCard(bytes, of: device) }
    func epochList(after: KeyEpoch?, limit: Int) -> [HubListing<KeyEpoch>] {
        Self.page(hubs.allEpochRecords(), after: after, limit: limit)
    }
    func epochRecords(_ epochs: [KeyEpoch]) -> [KeyEpoch: Result<[UInt8], SyncError>] {
        hubs.allEpochRecords().filter { epochs.contains($0.key) }.mapValues { .success($0) }
    }
    /// `items` past `after` in order, `limit` at most, each fingerprinted by its bytes.
    private static func page<Name: Comparable>(_ items: [Name: [UInt8]], after: Name?, limit: Int) -> [HubListing<Name>] {
        Array(items.filter { item in after.map { item.key > $0 } ?? true }.sorted { $0.key < $1.key }.prefix(limit)
            .map { HubListing(name: $0.key, fingerprint: "\($0.value.hashValue)") })
    }
    func writeEpochRecord(_ bytes: [UInt8], as epoch: KeyEpoch) { hubs.putEpochRecord(bytes, as: epoch) }
    var kind: HubKind { .folder }
    func changes(ownDevice: DeviceID, clock: any JournalClock) -> HubChanges { .files { [] } }
    func describe() -> HubDescription { HubDescription() }
    func lastNotification() -> Timestamp? { nil }
    func unmake() {}
    func close() {}
}

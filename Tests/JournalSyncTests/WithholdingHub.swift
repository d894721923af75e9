import JournalKit
import Synchronization

@testable import JournalSync

/// A hub that holds back the segments written through it until the test delivers them, one by one
/// and in any order, to the hub beneath: a sync tool copying files as it pleases, on any kind of hub.
/// Everything else (cards too) goes straight through, but for epoch records when `refusesEpochRecords`:
/// then writing one fails, as on a full disk.
final class WithholdingHub: Hub {
    let base: any Hub
    let refusesEpochRecords: Bool
    private let withheld = Mutex<[SegmentName: (device: DeviceID, bytes: [UInt8])]>([:])

    init(base: any Hub, refusesEpochRecords: Bool = false) {
        self.base = base
        self.refusesEpochRecords = refusesEpochRecords
    }

    /// The segments held back, in order.
    var names: [SegmentName] { withheld.withLock { $0.keys.sorted() } }

    /// Writes a segment held back to the hub beneath.
    func deliver(_ name: SegmentName) async throws {
        guard let segment = withheld.withLock({ $0[name] }) else { return }
        _ = try await base.write(segment.bytes, as: name, of: segment.device)
    }

    var id: String { base.id }
    var location: String { base.location }
    var firstKeyCheck: String { base.firstKeyCheck }
    var canRemoveSegments: Bool { false }
    var segmentsNeverChange: Bool { base.segmentsNeverChange }
    var kind: HubKind { base.kind }
    func refresh(after positions: [DeviceID: Int64]) async throws { try await base.refresh(after: positions) }
    func devices() async throws -> [DeviceID] { try await base.devices() }
    func log(of device: DeviceID) async throws -> DeviceLog { try await base.log(of: device) }
    func read(_ segment: SegmentName, of device: DeviceID) async throws -> [UInt8] { try await base.read(segment, of: device) }
    func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) async throws -> String {
        withheld.withLock { $0[segment] = (device, bytes) }
        return "withheld"
    }
    func remove(_ segment: SegmentName, of device: DeviceID) async throws {}
    func setAside(_ name: String, of device: DeviceID) async throws {}
    func removeLeftovers(of device: DeviceID) async throws { try await base.removeLeftovers(of: device) }
    func cardList(after: DeviceID?, limit: Int) async throws -> [HubListing<DeviceID>] { try await base.cardList(after: after, limit: limit) }
    func cards(of devices: [DeviceID]) async throws -> [DeviceID: Result<[UInt8], SyncError>] { try await base.cards(of: devices) }
    func writeCard(_ bytes: [UInt8], of device: DeviceID) async throws { try await base.writeCard(bytes, of: device) }
    func epochList(after: KeyEpoch?, limit: Int) async throws -> [HubListing<KeyEpoch>] { try await base.epochList(after: after, limit: limit) }
    func epochRecords(_ epochs: [KeyEpoch]) async throws -> [KeyEpoch: Result<[UInt8], SyncError>] { try await base.epochRecords(epochs) }
    func writeEpochRecord(_ bytes: [UInt8], as epoch: KeyEpoch) async throws {
        if refusesEpochRecords { throw SyncError.hubUnavailable(hub: location, reason: "no space left on device") }
        try await base.writeEpochRecord(bytes, as: epoch)
    }
    func changes(ownDevice: DeviceID, clock: any JournalClock) -> HubChanges { base.changes(ownDevice: ownDevice, clock: clock) }
    func describe() async throws -> HubDescription { try await base.describe() }
    func lastNotification() async -> Timestamp? { await base.lastNotification() }
    func unmake() async {}
    func close() async { await base.close() }
}

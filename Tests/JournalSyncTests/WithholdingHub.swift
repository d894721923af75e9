import HubTestSupport
import JournalKit
import Synchronization

@testable import JournalSync

/// A hub that holds back the segments written through it until the test delivers them, one by one
/// and in any order, to the hub beneath: a sync tool copying files as it pleases, on any kind of hub.
/// Everything else (cards too) goes straight through, but for epoch records when `refusesEpochRecords`:
/// then writing one fails, as on a full disk.
final class WithholdingHub: ForwardingHub {
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

    var canRemoveSegments: Bool { false }
    func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) async throws -> String {
        withheld.withLock { $0[segment] = (device, bytes) }
        return "withheld"
    }
    func remove(_ segment: SegmentName, of device: DeviceID) async throws {}
    func setAside(_ name: String, of device: DeviceID) async throws {}
    func writeEpochRecord(_ bytes: [UInt8], as epoch: KeyEpoch) async throws {
        if refusesEpochRecords { throw SyncError.hubUnavailable(hub: location, reason: "no space left on device") }
        try await base.writeEpochRecord(bytes, as: epoch)
    }
    func unmake() async {}
}

import JournalKit
import JournalSync

/// A test double over a real hub: every call goes to `base` but those the double implements itself
/// (a write held back, a read that fails or takes its time). A double says only how it differs.
public protocol ForwardingHub: Hub {
    var base: any Hub { get }
}

extension ForwardingHub {
    public var id: HubID { base.id }
    public var location: String { base.location }
    public var firstKeyCheck: String { base.firstKeyCheck }
    public var canRemoveSegments: Bool { base.canRemoveSegments }
    public var segmentsNeverChange: Bool { base.segmentsNeverChange }
    public var kind: HubKind { base.kind }
    public func refresh(after positions: [DeviceID: Int64]) async throws { try await base.refresh(after: positions) }
    public func refresh(after positions: [DeviceID: Int64], only: Set<DeviceID>) async throws {
        try await base.refresh(after: positions, only: only)
    }
    public func devices() async throws -> [DeviceID] { try await base.devices() }
    public func log(of device: DeviceID) async throws -> DeviceLog { try await base.log(of: device) }
    public func read(_ segment: SegmentName, of device: DeviceID) async throws -> [UInt8] { try await base.read(segment, of: device) }
    public func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) async throws -> String {
        try await base.write(bytes, as: segment, of: device)
    }
    public func remove(_ segment: SegmentName, of device: DeviceID) async throws { try await base.remove(segment, of: device) }
    public func setAside(_ name: String, of device: DeviceID) async throws { try await base.setAside(name, of: device) }
    public func removeLeftovers(of device: DeviceID) async throws { try await base.removeLeftovers(of: device) }
    public func cardList(after: DeviceID?, limit: Int) async throws -> [HubListing<DeviceID>] {
        try await base.cardList(after: after, limit: limit)
    }
    public func cards(of devices: [DeviceID]) async throws -> [DeviceID: Result<[UInt8], SyncError>] { try await base.cards(of: devices) }
    public func writeCard(_ bytes: [UInt8], of device: DeviceID) async throws { try await base.writeCard(bytes, of: device) }
    public func epochList(after: KeyEpoch?, limit: Int) async throws -> [HubListing<KeyEpoch>] {
        try await base.epochList(after: after, limit: limit)
    }
    public func epochRecords(_ epochs: [KeyEpoch]) async throws -> [KeyEpoch: Result<[UInt8], SyncError>] {
        try await base.epochRecords(epochs)
    }
    public func writeEpochRecord(_ bytes: [UInt8], as epoch: KeyEpoch) async throws { try await base.writeEpochRecord(bytes, as: epoch) }
    public func changes(ownDevice: DeviceID, clock: any JournalClock) -> HubChanges { base.changes(ownDevice: ownDevice, clock: clock) }
    public func describe() async throws -> HubDescription { try await base.describe() }
    public func lastNotification() async -> Timestamp? { await base.lastNotification() }
    public func unmake() async { await base.unmake() }
    public func close() async { await base.close() }
}

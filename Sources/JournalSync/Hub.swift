import JournalKit

/// Where devices meet: one append-only log per device, each a series of sealed segments. A hub stores
/// bytes it cannot read; sealing, ordering and merging are the engine's.
///
/// `FolderHub` keeps the logs as files in a shared folder; a PostgreSQL hub can keep them as rows.
public protocol Hub: Sendable {
    /// The hub's own random id: anchors and published ranges are kept per hub.
    var id: String { get }
    /// The hub for messages: "/mnt/shared/journal".
    var location: String { get }
    /// Devices that have a log on the hub.
    func devices() throws -> [DeviceID]
    /// The segments of a device's log, in order.
    func segments(of device: DeviceID) throws -> [SegmentName]
    func read(_ segment: SegmentName, of device: DeviceID) throws -> [UInt8]
    /// Adds a segment to a device's log; it appears whole or not at all, and never over a segment of
    /// that name already there (`SyncError.segmentExists`).
    func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) throws
}

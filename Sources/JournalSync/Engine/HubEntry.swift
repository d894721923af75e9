import JournalKit

/// A file or row of a device on the hub whose trouble an earlier sync said: what a sync leaves in
/// place and does not say again. `name` is a segment's or record's file name, "card", or "" for the
/// device's whole log passed over.
struct HubEntry: Hashable, Sendable {
    let device: DeviceID
    let name: String

    /// A device's whole log.
    static func log(of device: DeviceID) -> HubEntry { HubEntry(device: device, name: "") }
}

extension SetAsideFile {
    var entry: HubEntry { HubEntry(device: device, name: name) }
}

extension SyncReport {
    /// True when this sync said something of `entry` already.
    func mentions(_ entry: HubEntry) -> Bool { setAside.contains { $0.entry == entry } }
}

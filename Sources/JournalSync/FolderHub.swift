import FoundationEssentials
import JournalKit

import Glibc

/// A hub in a plain folder: a local disk, an NFS mount, or a folder Syncthing or Dropbox copies.
///
/// `<folder>/journal-hub-v1/hub.json` says the format and holds the key check;
/// `devices/<device-id>/<first>-<last>.seg` are the segments, each written once, whole, and never
/// changed. Names starting with "." are other tools' temporaries and are ignored. No SQLite file ever
/// lives here: SQLite's locks do not hold over network file systems.
public struct FolderHub: Hub {
    static let folderName = "journal-hub-v1"
    /// The hub format this journal writes and reads.
    public static let format = 1

    public let id: String
    public let location: String
    let root: String

    init(id: String, location: String) {
        self.id = id
        self.location = location
        self.root = location + "/" + FolderHub.folderName
    }

    /// True when `folder` holds a hub (of any format). A hub folder without its `hub.json` is one a
    /// sync tool is still copying: neither a hub to open nor a place to make one.
    public static func exists(in folder: String) throws(SyncError) -> Bool {
        if FileSystem.exists(folder + "/" + folderName + "/hub.json") { return true }
        if FileSystem.exists(folder + "/" + folderName) {
            throw SyncError.corruptHub(
                hub: folder,
                problem: "\(folderName) is there but its hub.json is not (a sync tool may still be copying it); "
                    + "wait for it to arrive, or remove \(folderName) if it is left over")
        }
        return false
    }

    /// Opens the hub in `folder`, refusing a newer format or another hub's key before reading anything else.
    public static func open(folder: String, key: SyncKey) throws(SyncError) -> FolderHub {
        let location = FileSystem.absolute(folder)
        let descriptor = try HubDescriptor.read(from: location + "/" + folderName + "/hub.json", hub: location)
        guard descriptor.format <= format else {
            throw SyncError.hubFormatTooNew(hub: location, format: descriptor.format, supported: format)
        }
        guard descriptor.keyCheck == key.check else { throw SyncError.wrongKey(hub: location) }
        return FolderHub(id: descriptor.hubID, location: location)
    }

    /// Makes a new, empty hub in `folder` for `key`.
    public static func create(folder: String, key: SyncKey) throws(SyncError) -> FolderHub {
        let location = FileSystem.absolute(folder)
        let hub = FolderHub(id: UUIDText.random(), location: location)
        do {
            try FileSystem.makeFolders(hub.root + "/devices", mode: 0o700)
            let descriptor = HubDescriptor(format: format, hubID: hub.id, keyCheck: key.check)
            // Never over a hub.json that arrived meanwhile: that hub stays, and joining it needs its key.
            try FileSystem.writeAtomically(descriptor.encoded, to: hub.root + "/hub.json", mode: 0o600, replacing: false)
        } catch {
            throw SyncError.hubUnavailable(hub: location, reason: error.reason)
        }
        return hub
    }

    public func devices() throws -> [DeviceID] {
        try available()
        let names: [String]
        do { names = try FileSystem.list(root + "/devices") } catch {
            throw SyncError.hubUnavailable(hub: location, reason: error.reason)
        }
        return names.filter { UUIDText.canonical($0) == $0 }.sorted().map { DeviceID(rawValue: $0) }
    }

    public func segments(of device: DeviceID) throws -> [SegmentName] {
        try available()
        let folder = deviceFolder(device)
        guard FileSystem.isFolder(folder) else { return [] }
        do {
            return try FileSystem.list(folder).compactMap(SegmentName.init(fileName:)).sorted()
        } catch {
            throw SyncError.hubUnavailable(hub: location, reason: error.reason)
        }
    }

    public func read(_ segment: SegmentName, of device: DeviceID) throws -> [UInt8] {
        do {
            return try FileSystem.readFile(deviceFolder(device) + "/" + segment.fileName)
        } catch {
            throw SyncError.hubUnavailable(hub: location, reason: error.reason)
        }
    }

    public func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) throws {
        try available()
        let folder = deviceFolder(device)
        do {
            try FileSystem.makeFolders(folder, mode: 0o700)
            // Segments are written once: never over one that is there (another copy's).
            try FileSystem.writeAtomically(bytes, to: folder + "/" + segment.fileName, mode: 0o600, replacing: false)
        } catch {
            if error.code == EEXIST { throw SyncError.segmentExists(segment.fileName) }
            throw SyncError.hubUnavailable(hub: location, reason: error.reason)
        }
    }

    /// The folder of `device`'s log, also what the daemon watches for new segments.
    public func deviceFolder(_ device: DeviceID) -> String { root + "/devices/" + device.rawValue }

    /// The folder holding every device's log.
    public var devicesFolder: String { root + "/devices" }

    /// A hub folder that vanished (an unmounted disk, a stopped share) is unavailable, not empty.
    private func available() throws(SyncError) {
        guard FileSystem.exists(root + "/hub.json") else {
            throw SyncError.hubUnavailable(hub: location, reason: "\(root) is missing (is the folder mounted?)")
        }
    }
}

/// `hub.json`: the hub's format, id and key check.
struct HubDescriptor: Codable, Equatable {
    let format: Int
    let hubID: String
    let keyCheck: String

    enum CodingKeys: String, CodingKey {
        case format
        case hubID = "hub_id"
        case keyCheck = "key_check"
    }

    var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array((try? encoder.encode(self)) ?? Data()) + [10]
    }

    static func read(from path: String, hub: String) throws(SyncError) -> HubDescriptor {
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(path) } catch {
            if error.isMissing { throw SyncError.hubUnavailable(hub: hub, reason: "there is no hub there (no \(path))") }
            throw SyncError.hubUnavailable(hub: hub, reason: error.reason)
        }
        // The format first: a newer one may lay out the rest differently, so say that before anything else.
        guard let version = try? JSONDecoder().decode(FormatOnly.self, from: Data(bytes)) else {
            throw SyncError.corruptHub(hub: hub, problem: "hub.json is not valid JSON with a format number")
        }
        guard (1..<1_000_000).contains(version.format) else {
            throw SyncError.corruptHub(hub: hub, problem: "hub.json has no usable format number")
        }
        if version.format > FolderHub.format { return HubDescriptor(format: version.format, hubID: "", keyCheck: "") }
        guard let descriptor = try? JSONDecoder().decode(HubDescriptor.self, from: Data(bytes)),
            !descriptor.hubID.isEmpty, !descriptor.keyCheck.isEmpty
        else { throw SyncError.corruptHub(hub: hub, problem: "hub.json lacks its id or key check") }
        return descriptor
    }

    private struct FormatOnly: Decodable {
        let format: Int
    }
}

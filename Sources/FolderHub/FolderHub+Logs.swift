import JournalKit
import JournalSync

import Glibc

/// The devices' logs: a folder each, a file a segment.
extension FolderHub {
    public func devices() throws -> [DeviceID] {
        try available()
        let names: [String]
        do { names = try files.names(in: [HubLayout.root, Self.logsFolder]) } catch where error.isMissing {
            // hub.json is there (`available`), and a sync tool that carries no empty folder has not made
            // `devices` yet: no device has published to this copy. Publishing makes it.
            return []
        } catch {
            // The folder of every log: a hub this user cannot read at all.
            if error.code == EACCES || error.code == EPERM { throw SyncError.permissionDenied(path: error.path) }
            throw hubFailure(error)
        }
        return names.compactMap(DeviceID.init(canonical:)).sorted()
    }

    public func log(of device: DeviceID) throws -> DeviceLog {
        try available()
        let names: [String]
        do {
            names = try files.names(in: deviceComponents(device))
        } catch where error.isMissing {
            return DeviceLog()
        } catch {
            throw hubFailure(error)
        }
        return try DeviceLog(listing: names, name: { $0 }) { name throws(SyncError) in
            // Gone between the listing and now: a sync tool at work; the next sync sees it as it is.
            try hubCall { try files.fingerprint(of: name, in: deviceComponents(device)) }.map { .file(fingerprint: $0) } ?? .gone
        }
    }

    public func read(_ segment: SegmentName, of device: DeviceID) throws -> [UInt8] {
        do {
            return try files.read(segment.fileName, in: deviceComponents(device), limit: SegmentName.maximumBytes, what: "a segment")
        } catch where error.code == ENOENT {
            // Listed a moment ago: its device merged it into a larger segment, or a sync tool moved it.
            try available()
            throw SyncError.hub(HubFailure(.gone, hub: location, reason: "segment \(segment.fileName) of device \(device)", code: .errno(error.code)))
        } catch {
            throw hubFailure(error)
        }
    }

    public func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) throws -> String {
        try available()
        do {
            return try files.writeNew(bytes, as: segment.fileName, in: deviceComponents(device))
        } catch {
            if error.code == EEXIST { throw SyncError.segmentExists(segment.fileName, hub: location, code: .errno(EEXIST)) }
            throw SyncError.hubUnavailable(hub: location, reason: error.reason, code: .errno(error.code))
        }
    }

    public func remove(_ segment: SegmentName, of device: DeviceID) throws {
        try hubCall { try files.remove(segment.fileName, in: deviceComponents(device)) }
    }

    public func setAside(_ name: String, of device: DeviceID) throws {
        try available()
        try hubCall { try files.move(name, in: deviceComponents(device), to: [HubLayout.root, HubLayout.setAside, device.rawValue]) }
    }

    /// Temporaries of segment writes that died; a sync tool would copy them to every machine. Other
    /// tools' dot-names are left alone.
    public func removeLeftovers(of device: DeviceID) throws {
        do { try files.removeLeftovers(in: deviceComponents(device), olderMarker: ".seg.tmp-") } catch where error.isMissing { return } catch {
            throw SyncError.hubUnavailable(hub: location, reason: error.reason, code: .errno(error.code))
        }
    }
}

import JournalKit
import JournalSync

import Glibc

/// Reading a folder hub's `hub.json`: what a file that cannot be read means, then its words.
extension HubDescriptor {
    static func read(from files: FolderAccess, hub: String) throws(SyncError) -> HubDescriptor {
        let bytes: [UInt8]
        do { bytes = try files.read(HubLayout.descriptor, in: [HubLayout.root], limit: HubDescriptor.limit, what: "a hub.json") } catch {
            if error.isMissing { throw SyncError.hubUnavailable(hub: hub, reason: "there is no hub there (no \(error.path))") }
            if error.kind == .badData { throw SyncError.corruptHub(hub: hub, problem: "hub.json: \(error.reason)") }
            if error.code == EACCES || error.code == EPERM { throw SyncError.hubDescriptorUnreadable(path: error.path, reason: error.reason) }
            throw SyncError.hubUnavailable(hub: hub, reason: error.reason)
        }
        return try decode(bytes, hub: hub, supported: FolderHub.format)
    }
}

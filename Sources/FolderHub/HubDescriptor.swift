import FoundationEssentials
import JournalKit
import JournalSync

import Glibc

/// `hub.json`: the hub's format, id and key check.
struct HubDescriptor: Codable, Equatable {
    let format: Int
    let hubID: HubID
    let keyCheck: String
    /// True for a hub shared between users; absent otherwise (and in hubs made before sharing).
    var shared: Bool?

    enum CodingKeys: String, CodingKey {
        case format
        case hubID = "hub_id"
        case keyCheck = "key_check"
        case shared
    }

    var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array((try? encoder.encode(self)) ?? Data()) + [10]
    }

    static func read(from files: FolderAccess, hub: String) throws(SyncError) -> HubDescriptor {
        let bytes: [UInt8]
        do { bytes = try files.read("hub.json", in: [FolderHub.folderName], limit: FolderHub.descriptorLimit, what: "a hub.json") } catch {
            if error.isMissing { throw SyncError.hubUnavailable(hub: hub, reason: "there is no hub there (no \(error.path))") }
            if error.kind == .badData { throw SyncError.corruptHub(hub: hub, problem: "hub.json: \(error.reason)") }
            if error.code == EACCES || error.code == EPERM { throw SyncError.hubDescriptorUnreadable(path: error.path, reason: error.reason) }
            throw SyncError.hubUnavailable(hub: hub, reason: error.reason)
        }
        // The format first: a newer one may lay out the rest differently, so say that before anything else.
        guard let version = try? JSONDecoder().decode(FormatOnly.self, from: Data(bytes)) else {
            throw SyncError.corruptHub(hub: hub, problem: "hub.json is not valid JSON with a format number")
        }
        guard (1..<1_000_000).contains(version.format) else {
            throw SyncError.corruptHub(hub: hub, problem: "hub.json has no usable format number")
        }
        if version.format > FolderHub.format { return HubDescriptor(format: version.format, hubID: HubID(rawValue: ""), keyCheck: "", shared: nil) }
        guard let descriptor = try? JSONDecoder().decode(HubDescriptor.self, from: Data(bytes)),
            !descriptor.hubID.rawValue.isEmpty, !descriptor.keyCheck.isEmpty
        else { throw SyncError.corruptHub(hub: hub, problem: "hub.json lacks its id or key check") }
        return descriptor
    }

    private struct FormatOnly: Decodable {
        let format: Int
    }
}

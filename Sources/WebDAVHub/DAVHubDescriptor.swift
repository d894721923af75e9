import FoundationEssentials
import JournalKit
import JournalSync

/// `hub.json`: the hub's format, id and key check, as a folder hub writes it.
struct DAVHubDescriptor: Codable, Equatable {
    let format: Int
    let hubID: HubID
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

    /// The descriptor in `bytes`; a newer format is read for its number alone, as it may lay out the
    /// rest differently.
    static func decode(_ bytes: [UInt8], hub: String) throws(SyncError) -> DAVHubDescriptor {
        guard let version = try? JSONDecoder().decode(FormatOnly.self, from: Data(bytes)), (1..<1_000_000).contains(version.format) else {
            throw SyncError.corruptHub(hub: hub, problem: "hub.json is not valid JSON with a format number")
        }
        if version.format > WebDAVHub.format { return DAVHubDescriptor(format: version.format, hubID: HubID(rawValue: ""), keyCheck: "") }
        guard let descriptor = try? JSONDecoder().decode(DAVHubDescriptor.self, from: Data(bytes)),
            !descriptor.hubID.rawValue.isEmpty, !descriptor.keyCheck.isEmpty
        else { throw SyncError.corruptHub(hub: hub, problem: "hub.json lacks its id or key check") }
        return descriptor
    }

    private struct FormatOnly: Decodable {
        let format: Int
    }
}

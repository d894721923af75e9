import FoundationEssentials
import JournalKit

/// `hub.json`, where a hub kept in files says its format, id and key check: a folder hub's, a WebDAV
/// hub's.
public struct HubDescriptor: Codable, Equatable, Sendable {
    public let format: Int
    public let hubID: HubID
    public let keyCheck: String
    /// True for a folder hub shared between users; absent otherwise (and in hubs made before sharing).
    public var shared: Bool?

    /// The most `hub.json` can be.
    public static let limit = 64 * 1024

    enum CodingKeys: String, CodingKey {
        case format
        case hubID = "hub_id"
        case keyCheck = "key_check"
        case shared
    }

    public init(format: Int, hubID: HubID, keyCheck: String, shared: Bool? = nil) {
        self.format = format
        self.hubID = hubID
        self.keyCheck = keyCheck
        self.shared = shared
    }

    public var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array((try? encoder.encode(self)) ?? Data()) + [10]
    }

    /// The descriptor in `bytes`, of the hub `hub`. A format newer than `supported` is read for its
    /// number alone (with an empty id and key check): it may lay out the rest differently, so that is
    /// said before anything else.
    public static func decode(_ bytes: [UInt8], hub: String, supported: Int) throws(SyncError) -> HubDescriptor {
        guard let version = try? JSONDecoder().decode(FormatOnly.self, from: Data(bytes)) else {
            throw SyncError.corruptHub(hub: hub, problem: "hub.json is not valid JSON with a format number")
        }
        guard (1..<1_000_000).contains(version.format) else {
            throw SyncError.corruptHub(hub: hub, problem: "hub.json has no usable format number")
        }
        if version.format > supported { return HubDescriptor(format: version.format, hubID: HubID(rawValue: ""), keyCheck: "") }
        guard let descriptor = try? JSONDecoder().decode(HubDescriptor.self, from: Data(bytes)),
            !descriptor.hubID.rawValue.isEmpty, !descriptor.keyCheck.isEmpty
        else { throw SyncError.corruptHub(hub: hub, problem: "hub.json lacks its id or key check") }
        return descriptor
    }

    private struct FormatOnly: Decodable {
        let format: Int
    }
}

import JournalKit
import Synchronization

/// A hub on a store of named objects (`HubStorage`), laid out so that one listing of `heads/` tells
/// whether another device published:
///
/// `journal-hub-v1/hub.json` says the format and holds the key check;
/// `logs/<device-id>/<first>-<last>.seg` a device's segments, each created once, whole;
/// `cards/<device-id>.card` each device's card, replaced whole; `epochs/<number>-<id>.epoch` the key
/// epochs' records, each created once; `heads/<device-id>` rewritten by its device after each segment
/// it adds (and made when it joins), `heads/epochs` after each key epoch record: what a look lists;
/// `set-aside/<device-id>/` what a device found in its log but did not write.
///
/// Nothing is written over: every object is created only where nothing is, and what is replaced (a
/// card, a head) is replaced only in the version read (`HubStorage.put`). The store's conditional
/// writes are probed when the hub is made (`StorageHub.make`).
public struct StorageHub: Hub {
    /// The hub format this journal writes and reads.
    public static let format = 1
    /// The folder every name of the hub is in.
    static let root = HubLayout.root + "/"

    public let id: HubID
    public let firstKeyCheck: String
    public let kind: HubKind
    let storage: any HubStorage
    let schedule: PollSchedule
    let state = StorageHubState()

    /// What a hub keeps between its calls, shared by its copies.
    final class StorageHubState: Sendable {
        private let contents = Mutex(State())

        func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T { try contents.withLock { try body(&$0) } }
    }

    struct State {
        /// The logs as the last `refresh` listed them.
        var logs: [DeviceID: DeviceLog] = [:]
        /// The cards' and records' listings since the last `refresh`, by prefix (`listing`).
        var listings: [String: [StoredObject]] = [:]
        /// Heads a segment was written for whose rewriting failed: rewritten at the next refresh, so
        /// that a look of another device's sees the segment.
        var owedHeads: Set<String> = []
        /// When a look last found another device's change.
        var lastRing: Timestamp?
    }

    public init(kind: HubKind, storage: any HubStorage, id: HubID, firstKeyCheck: String, schedule: PollSchedule = PollSchedule()) {
        self.kind = kind
        self.storage = storage
        self.id = id
        self.firstKeyCheck = firstKeyCheck
        self.schedule = schedule
    }

    public var location: String { storage.location }
    /// Segments can be removed (compaction, a damaged one written again).
    public var canRemoveSegments: Bool { true }
    /// Anyone with the store's credentials can replace an object.
    public var segmentsNeverChange: Bool { false }

    // MARK: Names

    static func name(_ relative: String) -> String { root + relative }
    static func logPrefix(_ device: DeviceID) -> String { name("logs/\(device.rawValue)/") }
    static func segmentName(_ segment: SegmentName, of device: DeviceID) -> String { logPrefix(device) + segment.fileName }
    static func cardName(_ device: DeviceID) -> String { cardsPrefix + HubLayout.cardFileName(device) }
    static func epochName(_ epoch: KeyEpoch) -> String { epochsPrefix + epoch.fileName }
    static let cardsPrefix = name(HubLayout.cards + "/")
    static let epochsPrefix = name(HubLayout.epochs + "/")
    static let headsPrefix = name("heads/")
    static func headName(_ device: DeviceID) -> String { headsPrefix + device.rawValue }
    /// The head a new key epoch record moves.
    static let epochsHead = headsPrefix + "epochs"
    static let descriptorName = name(HubLayout.descriptor)

    /// What a segment's entry in a log is told apart by: its size and version tag.
    static func fingerprint(_ object: StoredObject) -> String { "\(object.size):\(object.tag)" }
}

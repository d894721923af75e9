import JournalKit

/// Where devices meet: one append-only log per device, each a series of sealed segments. A hub stores
/// bytes it cannot read; sealing, ordering and merging are the engine's.
///
/// `FolderHub` keeps the logs as files in a shared folder; a PostgreSQL hub keeps them as rows.
public protocol Hub: Sendable {
    /// The hub's own random id: anchors and published ranges are kept per hub.
    var id: HubID { get }
    /// The hub for messages: "/mnt/shared/journal", "postgresql://alice@db.example.org/journal".
    var location: String { get }
    /// `SyncKey.check` of the key the hub was made with (epoch 0), as the hub says it: the root every
    /// later epoch's key is followed down to.
    var firstKeyCheck: String { get }
    /// True when segments can be removed from a log (to compact it, or to write a damaged one
    /// again); a PostgreSQL hub's server refuses it: its segments are append-only.
    var canRemoveSegments: Bool { get }
    /// True when a segment, once written, never changes or goes (a server's rows): one that does not
    /// open never will.
    var segmentsNeverChange: Bool { get }
    /// Takes a fresh look at the hub, once at the start of each sync. `after` says, per device, the
    /// position up to which its log need not be listed again (what this journal applied of it, or
    /// verified of its own): a hub that can list only what lies past it (a server, by an index) does,
    /// so that a sync's cost does not grow with the hub.
    func refresh(after positions: [DeviceID: Int64]) async throws
    /// A fresh look at `only` these devices' logs: a sync of the logs a ring named
    /// (`SyncScope.logs`). Other devices' logs may then be listed as empty until the next `refresh`.
    func refresh(after positions: [DeviceID: Int64], only: Set<DeviceID>) async throws
    /// Devices that have a log on the hub.
    func devices() async throws -> [DeviceID]
    /// What is in a device's log: its segments in order, and what else is there.
    func log(of device: DeviceID) async throws -> DeviceLog
    /// A segment's sealed bytes; refused past `SegmentName.maximumBytes`.
    func read(_ segment: SegmentName, of device: DeviceID) async throws -> [UInt8]
    /// Adds a segment to a device's log; it appears whole or not at all, and never over a segment of
    /// that name already there (`SyncError.segmentExists`). Returns its fingerprint.
    func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) async throws -> String
    /// Removes a segment from this device's own log: one a larger segment now covers, or one that is
    /// damaged and is about to be written again. Only where `canRemoveSegments`.
    func remove(_ segment: SegmentName, of device: DeviceID) async throws
    /// Moves a file this device did not write out of its log, keeping it for a person to look at.
    /// Only where `canRemoveSegments`.
    func setAside(_ name: String, of device: DeviceID) async throws
    /// Removes what writes to this device's log left half done (a process killed while writing).
    /// Called under the sync lock, when nothing of this device writes its log.
    func removeLeftovers(of device: DeviceID) async throws
    /// The cards on the hub past `after`, in device order, at most `limit`, each with what tells whether
    /// it changed since it was read; names that are no device id are left out. A sync pages through
    /// all of them, so no number of cards pushes one out of view, and reads only those that changed.
    /// Cards are written by devices of this journal and later; a hub made earlier has none yet.
    func cardList(after: DeviceID?, limit: Int) async throws -> [HubListing<DeviceID>]
    /// The sealed bytes of `devices`' cards; a card that cannot be read (not a regular file, too large)
    /// is that card's failure alone, one gone since it was listed is left out, and any other failure
    /// (the hub out of reach) fails the whole read (`HubRecords`).
    func cards(of devices: [DeviceID]) async throws -> [DeviceID: Result<[UInt8], SyncError>]
    /// Puts `bytes` as `device`'s card, in place of the one there, whole or not at all.
    func writeCard(_ bytes: [UInt8], of device: DeviceID) async throws
    /// The key epochs' records on the hub past `after`, in epoch order, at most `limit`, each with what
    /// tells whether it changed since it was read. A hub whose key never changed has none.
    func epochList(after: KeyEpoch?, limit: Int) async throws -> [HubListing<KeyEpoch>]
    /// The bytes of the records of `epochs`; one that cannot be read is that record's failure alone, one
    /// gone since it was listed is left out, and any other failure fails the whole read (`HubRecords`).
    func epochRecords(_ epochs: [KeyEpoch]) async throws -> [KeyEpoch: Result<[UInt8], SyncError>]
    /// Adds the record of `epoch`, whole or not at all; never over one already there.
    func writeEpochRecord(_ bytes: [UInt8], as epoch: KeyEpoch) async throws
    /// The hub's kind, as the journal records it.
    var kind: HubKind { get }
    /// How the hub tells that another device than `ownDevice` published; `clock` times its rings.
    func changes(ownDevice: DeviceID, clock: any JournalClock) -> HubChanges
    /// What `journal sync status` shows about the hub beyond its location; fails when the hub does not
    /// answer (a server that stalls, in the time its calls are allowed).
    func describe() async throws -> HubDescription
    /// When the hub last rang (a server's notification that another device published), if ever.
    func lastNotification() async -> Timestamp?
    /// Takes back this hub, made a moment ago by its place and used by nothing: a join that did not
    /// commit. Whatever another device wrote meanwhile stays.
    func unmake() async
    /// Lets go of what the hub holds open (a server connection). The hub opens it again when used.
    func close() async
}

/// A device's log as the hub holds it.
public struct DeviceLog: Sendable, Equatable {
    /// The segments, ordered by position; past `listedAfter` only.
    public var segments: [SegmentEntry] = []
    /// Segments ending at or before this position are not listed (`Hub.refresh(after:)`): the hub
    /// holds them as they were. 0 when the whole log is listed.
    public var listedAfter: Int64 = 0
    /// The last position of the log on the hub, as the hub reported it with an unlisted part.
    private var reportedHighest: Int64?
    /// The last position of the log on the hub, listed or not; nil when it has none.
    public var highest: Int64? { reportedHighest ?? segments.map(\.name.last).max() }
    /// Names in the log that are not segments a journal writes (a junk file, a sync tool's conflict
    /// copy); dot-named temporaries are not listed.
    public var strays: [String] = []
    public init(segments: [SegmentEntry] = [], strays: [String] = [], listedAfter: Int64 = 0, highest: Int64? = nil) {
        self.segments = segments
        self.strays = strays
        self.listedAfter = listedAfter
        reportedHighest = highest
    }

    /// The segments' names.
    public var names: [SegmentName] { segments.map(\.name) }
}

/// One segment in a log, and what tells whether it changed since it was written.
public struct SegmentEntry: Sendable, Hashable {
    public let name: SegmentName
    /// Size and modification time for a folder hub: equal means untouched.
    public let fingerprint: String

    public init(name: SegmentName, fingerprint: String) {
        self.name = name
        self.fingerprint = fingerprint
    }
}

/// A card or key epoch record as a hub lists it: its name, and what tells whether it changed since it
/// was read (a folder's size, times and inode; a server row's transaction and length).
public struct HubListing<Name: Hashable & Sendable>: Sendable, Hashable {
    public let name: Name
    public let fingerprint: String

    public init(name: Name, fingerprint: String) {
        self.name = name
        self.fingerprint = fingerprint
    }
}

extension Hub {
    /// A hub that lists each log when asked for it has nothing to narrow.
    public func refresh(after positions: [DeviceID: Int64], only: Set<DeviceID>) async throws {
        try await refresh(after: positions)
    }

    /// Every card on the hub as its sealed bytes, read in pages: for opening or joining a hub, and for
    /// tests. A sync reads only the cards that changed.
    public func allCards() async throws -> [DeviceID: Result<[UInt8], SyncError>] {
        var cards: [DeviceID: Result<[UInt8], SyncError>] = [:]
        var after: DeviceID?
        while true {
            let page = try await cardList(after: after, limit: ListingPage.size)
            guard let last = page.last else { return cards }
            cards.merge(try await self.cards(of: page.map(\.name)), uniquingKeysWith: { first, _ in first })
            after = last.name
        }
    }

    /// Every key epoch record on the hub as its bytes, read in pages: for opening or joining a hub, and
    /// for tests. A sync reads only the records it has not read before.
    public func allEpochRecords() async throws -> [KeyEpoch: Result<[UInt8], SyncError>] {
        var records: [KeyEpoch: Result<[UInt8], SyncError>] = [:]
        var after: KeyEpoch?
        while true {
            let page = try await epochList(after: after, limit: ListingPage.size)
            guard let last = page.last else { return records }
            for start in stride(from: 0, to: page.count, by: 64) {
                let batch = page[start..<min(start + 64, page.count)].map(\.name)
                records.merge(try await epochRecords(batch), uniquingKeysWith: { first, _ in first })
            }
            after = last.name
        }
    }
}

/// How many names a page of a hub's listing holds: a server sends no more rows at once, and the engine
/// takes a shorter page for the last.
public enum ListingPage {
    public static let size = 1000

    /// The page of `sorted` (in its names' order) past `after`, at most `limit` long, its start found
    /// by halves: paging through many names reads each page's alone. Every element has a name
    /// (`sorted` holds only what a kind took for one; one without would be taken for one before `after`).
    public static func of<Element, Name: Comparable>(_ sorted: [Element], after: Name?, limit: Int, name: (Element) -> Name?) -> ArraySlice<Element> {
        var low = 0, high = sorted.count
        if let after {
            while low < high {
                let middle = (low + high) / 2
                if let named = name(sorted[middle]), named > after { high = middle } else { low = middle + 1 }
            }
        }
        return sorted[low..<(sorted.count - low > limit ? low + max(limit, 0) : sorted.count)]
    }
}

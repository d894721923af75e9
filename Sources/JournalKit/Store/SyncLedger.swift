/// What this journal keeps of its sync with one hub: how far it published and what it wrote there,
/// how far it applied each other device's log, how far it found logs to be no member's, and the files
/// earlier syncs said. A sync reads it once, in one snapshot (`JournalStore.syncLedger`), and keeps this
/// copy in step with each of its writes (`JournalStore+SyncLedger`), so no step reads it again.
public struct SyncLedger: Sendable, Equatable {
    public let hubID: HubID
    /// This device's changes up to this position are on the hub.
    public private(set) var publishedThrough: Int64
    /// Up to this position, this device's log carries every device's records: the journal moved to
    /// this hub from another, and publishes everything it holds there (`JournalStore.joinHub`).
    public let relayThrough: Int64
    /// The segments this journal wrote, or was about to write, ordered by range.
    public private(set) var published: [PublishedSegment]
    /// How far each other device's log was applied here.
    public private(set) var anchors: [DeviceID: Int64]
    /// How far each device's log was found to be no member's.
    public private(set) var refusedLogs: [DeviceID: Int64]
    /// What earlier syncs said of files and logs, newest first.
    public let setAside: [SetAsideFile]

    public init(
        hubID: HubID, publishedThrough: Int64 = 0, relayThrough: Int64 = 0, published: [PublishedSegment] = [], anchors: [DeviceID: Int64] = [:],
        refusedLogs: [DeviceID: Int64] = [:], setAside: [SetAsideFile] = []
    ) {
        self.hubID = hubID
        self.publishedThrough = publishedThrough
        self.relayThrough = relayThrough
        self.published = published.sorted { $0.range < $1.range }
        self.anchors = anchors
        self.refusedLogs = refusedLogs
        self.setAside = setAside
    }

    /// The journal moved to this hub and has not published yet what it relays: it reads the hub
    /// first, so as to publish only what the hub lacks.
    public var isMoving: Bool { publishedThrough < relayThrough }

    /// Where `device`'s log is read from: past what was applied of it, or found to be no member's.
    public func readFrom(_ device: DeviceID) -> Int64 { max(anchors[device] ?? 0, refusedLogs[device] ?? 0) }

    /// How far each device's log need not be listed again: what this journal applied of another
    /// device's, or found to be no member's, and of its own what it published and verified there.
    public func positionsKnown(own device: DeviceID) -> [DeviceID: Int64] {
        var positions = anchors
        for (other, through) in refusedLogs { positions[other] = max(positions[other] ?? 0, through) }
        positions[device] = published.filter { $0.fingerprint != nil && $0.range.last <= publishedThrough }.map(\.range.last).max() ?? 0
        return positions
    }

    /// Where this device's next segment starts: right after the last one written, a segment left by a
    /// crash included.
    public var nextSegmentFirst: Int64 { (published.map(\.range.last).max() ?? 0) + 1 }

    /// True when one of the segments written lies inside another: a compaction the process did not finish.
    public var hasNestedSegments: Bool {
        let ranges = published.map(\.range)
        return ranges.contains { inner in ranges.contains { $0 != inner && $0.first <= inner.first && inner.last <= $0.last } }
    }

    mutating func markPublished(through position: Int64) { publishedThrough = max(publishedThrough, position) }

    mutating func recordPublishing(_ range: PublishedRange) {
        guard !published.contains(where: { $0.range == range }) else { return }
        published.append(PublishedSegment(range: range, fingerprint: nil))
        published.sort { $0.range < $1.range }
    }

    mutating func forgetPublishing(_ range: PublishedRange) { published.removeAll { $0.range == range } }

    mutating func recordFingerprint(_ fingerprint: String, of range: PublishedRange) {
        guard let index = published.firstIndex(where: { $0.range == range }) else { return }
        published[index] = PublishedSegment(range: range, fingerprint: fingerprint)
    }

    mutating func applied(_ device: DeviceID, through position: Int64) { anchors[device] = max(anchors[device] ?? 0, position) }

    mutating func refuseLog(of device: DeviceID, through position: Int64) {
        refusedLogs[device] = max(refusedLogs[device] ?? 0, position)
    }
}

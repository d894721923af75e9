import JournalKit

/// What the check of this device's own log on the hub does, decided from what it read: the segments
/// this journal remembers writing (the ledger), the log as the hub lists it, and what each segment
/// there that is not as it was written holds (`Finding`). A value, tested without a hub; the engine's
/// `checkOwnLog` reads, then carries it out.
///
/// Copy tools (Dropbox, OneDrive, a USB stick, `cp -a`) bring back segments this device replaced and
/// rename the copies they cannot settle: weather, not an attack. A segment signed by this device whose
/// every change this journal holds is an older copy of its own, left where it is (readers take the
/// newer segment that covers it; moved out, a copy tool would only bring it back) and said once. A segment
/// signed by this device with changes this journal lacks, past what this journal published or over
/// segments of its own that are gone from the hub (a compaction of its own), was published by this
/// journal before it was put back from a backup: it is taken back, as a device that was offline takes
/// the others' changes. One that lies beside a segment this journal wrote at the same positions shows
/// two journals writing as this device (a copied database): nothing is published.
struct OwnLogReview: Equatable {
    /// What a segment in the log, not as this journal wrote it, turned out to hold.
    enum Finding: Equatable {
        /// It does not open with a key of the hub, or is not signed by this device.
        case notOurs
        /// Signed by this device, and this journal holds every record in it, at that version or later.
        case known
        /// Signed by this device, with these changes this journal lacks.
        case unknown([AnyReplicated])
        /// Not this journal's, and said by an earlier sync, which left it in place: not read again.
        case saidBefore
        /// Unsigned (from before its device signed), with changes this journal lacks: whoever held the
        /// hub's first key could have written it, so nothing of it is taken back.
        case unsigned
    }

    enum Action: Equatable {
        /// A file that is no segment of this device's as it stands: moved out of the log, said once.
        case setAside(String, reason: String)
        /// A file of this device's log left where it is, said once.
        case leave(String, reason: String)
        /// A segment this journal wrote that no longer opens: set aside and written again, or, when it
        /// cannot be moved, reported.
        case replaceDamaged(SegmentName)
        /// A segment this journal wrote that no longer opens, on a hub that keeps every segment: reported.
        case reportDamaged(SegmentName)
        /// A segment this journal wrote that opens, with a fingerprint of its own now (written before
        /// fingerprints were kept, or moved by the hub): kept as written.
        case refingerprint(PublishedRange, String)
        /// Changes this device published that this journal lost: taken back.
        case takeBack(SegmentName, fingerprint: String, records: [AnyReplicated])
        /// Remembered but never on the hub (a crash before the write): its changes are still to publish.
        case forget(PublishedRange)
        /// Remembered, published, gone from the hub: written again from what the journal holds.
        case rewrite(PublishedRange)
        /// Written, and found there: published through this position.
        case markPublished(Int64)
    }

    /// What to do, in order.
    var actions: [Action] = []
    /// Segments that show another journal writing as this device: nothing is published.
    var copiedBy: [String] = []

    static func make(
        published: [PublishedSegment], publishedThrough: Int64, log: DeviceLog, findings: [SegmentName: Finding], canRemoveSegments: Bool
    ) -> OwnLogReview {
        var review = OwnLogReview()
        for stray in log.strays {
            // A copy tool's copy is left, as it would bring back one moved out; it is never read as a segment.
            review.actions.append(StrayName.copiedSegment(stray) == nil ? .setAside(stray, reason: StrayName.junkReason) : .leave(stray, reason: StrayName.reason(stray)))
        }
        var ours: [PublishedRange: PublishedSegment] = [:]
        for segment in published { ours[segment.range] = segment }
        var present = Set<PublishedRange>()
        var damaged = Set<PublishedRange>()
        for entry in log.segments {
            let range = PublishedRange(first: entry.name.first, last: entry.name.last)
            if let written = ours[range], written.fingerprint == entry.fingerprint {
                present.insert(range)
                continue
            }
            switch (ours[range] != nil, findings[entry.name] ?? .notOurs) {
            case (true, .notOurs) where canRemoveSegments:
                review.actions.append(.replaceDamaged(entry.name))
                damaged.insert(range)
            case (true, .notOurs):
                review.actions.append(.reportDamaged(entry.name))
                present.insert(range)
            case (true, _):
                review.actions.append(.refingerprint(range, entry.fingerprint))
                present.insert(range)
            case (false, .notOurs):
                review.actions.append(.setAside(entry.name.fileName, reason: "it was not written by this journal"))
            case (false, .known):
                review.actions.append(.leave(entry.name.fileName, reason: staleReason))
            case (_, .saidBefore):
                continue
            case (false, .unsigned):
                review.actions.append(.leave(entry.name.fileName, reason: unsignedReason))
            case (false, .unknown(let records)):
                guard !beside(range, ours: Array(ours.keys)) else {
                    review.copiedBy.append(entry.name.fileName)
                    continue
                }
                review.actions.append(.takeBack(entry.name, fingerprint: entry.fingerprint, records: records))
                present.insert(range)
            }
        }
        guard review.copiedBy.isEmpty else {
            review.actions.removeAll {
                switch $0 {
                case .setAside, .leave: return false
                default: return true
                }
            }
            return review
        }
        review.actions += settle(ours.keys.sorted(), present: present, damaged: damaged, publishedThrough: publishedThrough, log: log)
        return review
    }

    /// True when `range`, a segment of this device's that this journal did not write, shares positions
    /// with a segment this journal wrote that it does not wholly cover: two different segments of this
    /// device at one position.
    static func beside(_ range: PublishedRange, ours: [PublishedRange]) -> Bool {
        // One that wholly covers a segment of ours is a compaction of this device's log by the journal
        // before it was restored, whether or not the segment it replaced is still there (a copy tool, or
        // the hub's operator, can always bring that one back).
        ours.contains { written in
            written.first <= range.last && range.first <= written.last && !(range.first <= written.first && written.last <= range.last)
        }
    }

    /// What becomes of each segment this journal remembers: published, forgotten or written again.
    private static func settle(
        _ remembered: [PublishedRange], present: Set<PublishedRange>, damaged: Set<PublishedRange>, publishedThrough: Int64, log: DeviceLog
    ) -> [Action] {
        var actions: [Action] = []
        var through = publishedThrough
        for range in remembered where range.last > log.listedAfter && !damaged.contains(range) {
            if present.contains(range) {
                // Written, but the process died before marking it published.
                through = max(through, range.last)
            } else if range.last > publishedThrough {
                actions.append(.forget(range))
            } else if present.contains(where: { $0 != range && $0.first <= range.first && range.last <= $0.last }) {
                // Inside a segment of this device's that is there: merged away by a compaction (of this
                // journal before it was restored, or of one that died before it forgot it).
                actions.append(.forget(range))
            } else {
                actions.append(.rewrite(range))
            }
        }
        if through > publishedThrough { actions.append(.markPublished(through)) }
        return actions
    }

    static let unsignedReason = "an unsigned segment under this device's id with changes this journal does not hold: whoever held the "
        + "hub's first key could have written it, so nothing of it is taken back, and it is left there"

    static let staleReason = "an older copy of this device's own segment, which a copy tool brought back after the device had "
        + "replaced it: every change in it is in this journal, and readers take the segment that replaced it, so it is left there"
}

/// Names in a device's log that are not segments: a copy tool's copy of one (Dropbox's "(conflicted
/// copy ...)", Google Drive's "(1)", Syncthing's ".sync-conflict-...", OneDrive's "-MACHINE") keeps the
/// segment's name at its start.
enum StrayName {
    /// The segment a copy's name starts with, when it starts with one.
    static func copiedSegment(_ name: String) -> SegmentName? {
        guard name.utf8.count > 25, SegmentName(fileName: name) == nil else { return nil }
        return SegmentName(fileName: String(decoding: name.utf8.prefix(25), as: UTF8.self) + ".seg")
    }

    static let junkReason = "it is not a segment this journal writes"

    /// Why a file in this device's log that is not named as a segment is left or set aside.
    static func reason(_ name: String) -> String {
        guard let segment = copiedSegment(name) else { return junkReason }
        return "a copy tool's copy of this device's segment \(segment.fileName), made when it could not settle two versions of "
            + "the file: a file not named as a segment is never read as one, so it is left there"
    }
}

import JournalKit

extension SyncEngine {
    /// Keeps this device's log small however long its history grows: two neighbouring segments are
    /// replaced by one covering both when what this journal holds now for their positions fits a
    /// segment, and the older one holds no more than the newer (or the newer holds nothing left).
    /// Tiny segments (one per change, as the daemon publishes) so merge like a binary counter: a log
    /// of n changes is a few full segments and at most about log2(n) smaller ones, and each change is
    /// written again only a few times.
    ///
    /// Readers stay whole whatever order a sync tool delivers the new segment and the removals in:
    /// the new one is written before the old ones go, and it holds every record of this device whose
    /// last write is in its positions. A reader that applied an old segment re-applies its records
    /// unchanged; one that finds neither waits, as for any segment on its way.
    func compactOwnLog(ledger: inout SyncLedger, into report: inout SyncReport, progress: SyncProgress) async throws {
        guard hub.canRemoveSegments else { return }
        let published = ledger.publishedThrough
        var segments = ledger.published.map(\.range).filter { $0.last <= published }
        // A segment inside another is left from a compaction the process did not finish.
        for inner in segments where segments.contains(where: { $0 != inner && $0.first <= inner.first && inner.last <= $0.last }) {
            try await drop(inner, ledger: &ledger)
        }
        segments = ledger.published.map(\.range).filter { $0.last <= published }
        var counts: [Int] = []
        for segment in segments { counts.append(try await store.ownRecordCount(in: segment.first...segment.last, relayThrough: ledger.relayThrough)) }
        while let index = Self.mergeable(counts, limit: segmentSize) {
            try Task.checkCancellation()
            let merged = PublishedRange(first: segments[index].first, last: segments[index + 1].last)
            let name = SegmentName(first: merged.first, last: merged.last)
            try await writeOwn(name, records: store.ownRecords(in: merged.first...merged.last, relayThrough: ledger.relayThrough), publishing: false, ledger: &ledger)
            try await drop(segments[index], ledger: &ledger)
            try await drop(segments[index + 1], ledger: &ledger)
            segments.replaceSubrange(index...index + 1, with: [merged])
            counts.replaceSubrange(index...index + 1, with: [counts[index] + counts[index + 1]])
            report.segmentsMerged += 1
            progress.step()
        }
    }

    /// The rightmost pair of neighbouring segments, by their record counts, that the rule merges.
    static func mergeable(_ counts: [Int], limit: Int) -> Int? {
        guard counts.count >= 2 else { return nil }
        for index in stride(from: counts.count - 2, through: 0, by: -1) {
            let (older, newer) = (counts[index], counts[index + 1])
            if older + newer <= limit && (older <= newer || newer == 0) { return index }
        }
        return nil
    }

    /// Removes one of this device's segments from the hub, then forgets it.
    private func drop(_ range: PublishedRange, ledger: inout SyncLedger) async throws {
        try await hub.remove(SegmentName(first: range.first, last: range.last), of: store.deviceID)
        try await store.forgetPublishing(range, in: &ledger)
    }
}

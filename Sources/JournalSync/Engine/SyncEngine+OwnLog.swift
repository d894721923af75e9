import JournalKit

extension SyncEngine {
    /// Checks this device's own log on the hub against what this journal wrote, before publishing:
    ///
    /// - a file that is not a segment, or a segment this journal did not write and that does not open
    ///   with the key, is junk: set aside (kept for a person to look at) and reported by its name;
    /// - a segment this journal did not write that opens with the key was written by another copy of
    ///   this database: refused, nothing published;
    /// - a segment of this journal's that changed and no longer opens is set aside, and, with every
    ///   segment that went missing, written again from what this journal holds for its positions.
    ///
    /// A crash between remembering a segment and marking it published is settled here too: kept if it
    /// reached the hub, forgotten if not (its changes are still to publish).
    func checkOwnLog(ledger: inout SyncLedger, leftInPlace: Set<HubEntry>, into report: inout SyncReport, progress: SyncProgress) async throws {
        let publishedThrough = ledger.publishedThrough
        let device = store.deviceID
        try await hub.removeLeftovers(of: device)
        let log = try await hub.log(of: device)
        @discardableResult
        func setAside(_ name: String, because reason: String) async throws -> Bool {
            if leftInPlace.contains(HubEntry(device: device, name: name)) { return false }
            return try await self.setAside(name, because: reason, into: &report)
        }
        for stray in log.strays { try await setAside(stray, because: "it is not a segment this journal writes") }
        var ours: [PublishedRange: PublishedSegment] = [:]
        for segment in ledger.published { ours[segment.range] = segment }
        var present = Set<PublishedRange>()
        var foreign: [String] = []
        for entry in log.segments {
            let range = PublishedRange(first: entry.name.first, last: entry.name.last)
            let written = ours[range]
            if let written, written.fingerprint == entry.fingerprint {
                present.insert(range)
                continue
            }
            // Changed since written (or written before fingerprints were kept), or not written here:
            // whether it opens with the key tells a segment from junk.
            let opens: Bool
            do {
                _ = try await open(entry.name, of: device)
                opens = true
            } catch is SegmentContentError {
                opens = false
            }
            progress.step()
            switch (written != nil, opens) {
            case (true, true):
                try await store.recordWritten(entry.fingerprint, of: range, publishing: false, in: &ledger)
                present.insert(range)
            case (false, true):
                foreign.append(entry.name.fileName)
            case (true, false) where hub.canRemoveSegments:
                if try await setAside(entry.name.fileName, because: "it was damaged; it is written again") { break }
                fallthrough
            case (true, false):
                // A hub that keeps every segment for good cannot take it back: its readers report it.
                present.insert(range)
                report.failures.append(SegmentFailure(
                    device: device, segment: entry.name.fileName, reason: "this device's own segment no longer opens"))
            case (false, false):
                try await setAside(entry.name.fileName, because: "it was not written by this journal")
            }
        }
        guard foreign.isEmpty else { throw SyncError.copiedDatabase(device: device, foreign: foreign) }
        var through = publishedThrough
        for range in ours.keys.sorted() {
            // Not listed: the hub holds it as it was written and checked (a server's rows never change).
            if range.last <= log.listedAfter { continue }
            if present.contains(range) {
                // Written, but the process died before marking it published.
                through = max(through, range.last)
                continue
            }
            if range.last > publishedThrough {
                // Remembered, but the process died before it reached the hub: its changes are still to publish.
                try await store.forgetPublishing(range, in: &ledger)
                continue
            }
            try Task.checkCancellation()
            let name = SegmentName(first: range.first, last: range.last)
            try await writeOwn(name, records: store.ownRecords(in: range.first...range.last, relayThrough: ledger.relayThrough), publishing: false, ledger: &ledger)
            report.republished.append(name.fileName)
            progress.step()
        }
        if through > publishedThrough { try await store.markPublished(through: through, in: &ledger) }
    }
}

extension SyncEngine {
    /// Moves a file this device did not write out of its log, where the hub allows, and reports it
    /// either way. A file the hub will not let this device move (planted in a shared hub by a member
    /// whose folder rules forbid it) is reported for a person to remove; the sync goes on.
    /// True when it was moved.
    private func setAside(_ name: String, because reason: String, into report: inout SyncReport) async throws -> Bool {
        var moved = false
        var reason = reason
        if hub.canRemoveSegments {
            do {
                try await hub.setAside(name, of: store.deviceID)
                moved = true
            } catch SyncError.hub(let failure) where failure.condition == .unusableEntry {
                reason += "; it could not be moved out (\(failure.reason)): remove it"
            }
        }
        report.setAside.append(
            SetAsideFile(device: store.deviceID, name: name, reason: reason, outcome: moved ? .moved : .left, at: report.at))
        return moved
    }
}

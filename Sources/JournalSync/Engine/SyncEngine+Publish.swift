import JournalKit

extension SyncEngine {
    /// Publishes this device's changes as segments whose ranges follow one another without a gap: each
    /// starts right after the last one written, so a reader tells a segment still on its way (a gap)
    /// from positions that hold nothing of this device. Pages of other devices' changes move the
    /// published position without a segment; the next segment's range covers them.
    ///
    /// A journal that moved to this hub publishes, up to `SyncLedger.relayThrough`, every device's
    /// records it holds that the hub does not (`foundOnHub`, what the pull before found there), each
    /// with its origin and clock: the machines that join after it find the whole journal.
    func publish(ledger: inout SyncLedger, leftInPlace: Set<HubEntry>, into report: inout SyncReport, progress: SyncProgress) async throws {
        var position = ledger.publishedThrough
        var next = ledger.nextSegmentFirst
        var moved = MovedRecords(device: store.deviceID)
        defer { report.moved = moved.count }
        while true {
            // Stopping between segments is safe: each is published (and each pull applied) on its own.
            try Task.checkCancellation()
            let page = try await store.ownChanges(after: position, limit: segmentSize, relayThrough: ledger.relayThrough)
            report.unpublishable += page.refused.count
            guard page.through > position else { break }
            let records = foundOnHub.map { found in page.records.filter { !found.contains(RecordOnHub($0)) } } ?? page.records
            if !records.isEmpty {
                let name = SegmentName(first: next, last: page.through)
                do { try await writeOwn(name, records: records, publishing: true, ledger: &ledger) } catch let taken as PositionTaken {
                    // Someone with the right to write the hub put a row there that is no segment of ours;
                    // it stays (a server hub keeps every row). The next change makes a longer range.
                    let file = SetAsideFile(device: store.deviceID, name: name.fileName, reason: taken.reason, outcome: .left, at: report.at)
                    // Found by the check of this device's log a moment ago: said once, as what it does.
                    if let found = report.setAside.firstIndex(where: { $0.device == file.device && $0.name == file.name }) {
                        report.setAside[found] = file
                    } else if !leftInPlace.contains(HubEntry(device: store.deviceID, name: name.fileName)) {
                        report.setAside.append(file)
                    }
                    break
                }
                report.published += records.count
                report.segmentsWritten += 1
                moved.note(records)
                progress.step(published: records.count)
                next = page.through + 1
            } else {
                try await store.markPublished(through: page.through, in: &ledger)
            }
            position = page.through
        }
        if moved.count > 0 { try await store.recordMoved(changes: moved.count, devices: moved.devices.count, at: report.at, in: ledger) }
    }

    /// Writes a segment of this device's log: remembered before it is written, so that it is known as
    /// this journal's own even if the process dies right after, and its fingerprint kept once written,
    /// in the transaction that moves the published position through it when it is `publishing` (not
    /// when it replaces segments already published).
    func writeOwn(_ name: SegmentName, records: [AnyReplicated], publishing: Bool, ledger: inout SyncLedger) async throws {
        let range = PublishedRange(first: name.first, last: name.last)
        try await store.recordPublishing(range, in: &ledger)
        let (epoch, key) = try sealingKey()
        let plaintext = try SegmentCodec.encode(records, device: store.deviceID)
        let sealed = try SegmentSeal.seal(
            plaintext.bytes, format: plaintext.format, epoch: epoch, key: key, signer: deviceKeys, hubID: hub.id, device: store.deviceID,
            name: name)
        let fingerprint: String
        do {
            fingerprint = try await hub.write(sealed, as: name, of: store.deviceID)
        } catch SyncError.hub(let failure) where failure.condition == .nameTaken {
            try await store.forgetPublishing(range, in: &ledger)
            // A segment there that opens with the key was written by another copy of this database;
            // one that does not is a row anyone with the right to write the hub could have put there.
            do {
                _ = try await open(name, of: store.deviceID)
            } catch let error as SegmentContentError {
                throw PositionTaken(reason: "it is not a segment of this device (\(error.description)) and takes the name this "
                    + "device's next changes were to be published under; they go up with its next change, under a longer range")
            }
            throw SyncError.copiedDatabase(device: store.deviceID, foreign: [name.fileName])
        }
        try await store.recordWritten(fingerprint, of: range, publishing: publishing, in: &ledger)
    }
}

/// A name in this device's own log taken by something that is no segment of this device.
struct PositionTaken: Error {
    let reason: String
}

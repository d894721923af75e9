import JournalKit

/// Publishes this device's changes to the hub and applies every other device's, once per `sync()`.
///
/// It runs on the store's thread (its executor is the store's), so its many store calls hand nothing
/// between threads, and the hub's blocking file I/O never holds one of Swift's cooperative threads.
public actor SyncEngine {
    public nonisolated let store: JournalStore
    public nonisolated let hub: any Hub
    let key: SyncKey
    /// Records per segment: big enough that a first sync writes few files, small enough that a
    /// segment is quick to seal, write and apply.
    let segmentSize: Int

    public nonisolated var unownedExecutor: UnownedSerialExecutor { store.unownedExecutor }

    public init(store: JournalStore, hub: any Hub, key: SyncKey, segmentSize: Int = 2000) {
        self.store = store
        self.hub = hub
        self.key = key
        self.segmentSize = segmentSize
    }

    /// One sync: under the journal's sync lock, check this device's own log, publish, then pull.
    /// Segments that cannot be applied are in the report's failures; the rest still syncs. Cancelled,
    /// it stops between segments, having applied whole segments only. Each segment is a step of
    /// `progress`.
    public func sync(progress: SyncProgress = SyncProgress()) async throws -> SyncReport {
        let lock = try FileLock.sync(databasePath: store.path)
        defer { withExtendedLifetime(lock) {} }
        // Checked under the lock, which `journal sync new-device` holds while it changes the id.
        guard try await store.storedDeviceID() == store.deviceID else { throw SyncError.deviceIdentityChanged }
        // A newer journal may have migrated the file since this process opened it.
        try await store.checkSchemaIsKnown()
        // A copy of the file would publish as this device: refuse before it writes anything.
        guard try await store.isOriginalFile() else { throw SyncError.copiedFile(path: store.path) }
        guard let joined = try await store.hub(), joined.hubID == hub.id else { throw SyncError.notJoined }
        var report = SyncReport()
        let own = try await checkOwnLog()
        try await publish(from: joined.publishedThrough, onHub: own, into: &report, progress: progress)
        try await pull(into: &report, progress: progress)
        return report
    }

    /// A sync whose result is recorded in the journal for `journal sync status`, failed or not: what
    /// both `journal sync` and the daemon run.
    public func syncRecordingResult(progress: SyncProgress = SyncProgress()) async throws -> SyncReport {
        let report: SyncReport
        do {
            report = try await sync(progress: progress)
        } catch {
            if !(error is CancellationError) {
                try? await store.recordSyncResult("failed: \(failureMessage(error))", at: store.clock.now(), hubID: hub.id)
            }
            throw error
        }
        try await store.recordSyncResult(report.result, at: store.clock.now(), hubID: hub.id)
        return report
    }

    /// This device's segments on the hub, refusing when one of them was not written by this journal:
    /// another copy of the database is publishing as the same device.
    private func checkOwnLog() async throws -> Set<SegmentName> {
        let device = store.deviceID
        let onHub = try hub.segments(of: device)
        guard !onHub.isEmpty else { return [] }
        let ours = Set(try await store.publishedRanges(hubID: hub.id))
        let foreign = onHub.filter { !ours.contains(PublishedRange(first: $0.first, last: $0.last)) }
        guard foreign.isEmpty else {
            throw SyncError.copiedDatabase(device: device, foreign: foreign.map(\.fileName))
        }
        return Set(onHub)
    }

    /// Publishes this device's changes as segments whose ranges follow one another without a gap: each
    /// starts right after the last one written, so a reader tells a segment still on its way (a gap)
    /// from positions that hold nothing of this device. Pages of other devices' changes move the
    /// published position without a segment; the next segment's range covers them.
    private func publish(
        from published: Int64, onHub: Set<SegmentName>, into report: inout SyncReport, progress: SyncProgress
    ) async throws {
        var position = published
        // A segment remembered but not marked published means a crash came between: keep it if it
        // reached the hub, forget it if it did not (its changes are still after `position`).
        for range in try await store.publishedRanges(hubID: hub.id) where range.last > position {
            if onHub.contains(SegmentName(first: range.first, last: range.last)) {
                try await store.markPublished(through: range.last, hubID: hub.id)
                position = range.last
            } else {
                try await store.forgetPublishing(range, hubID: hub.id)
            }
        }
        var next = (try await store.publishedRanges(hubID: hub.id).map(\.last).max() ?? 0) + 1
        while true {
            // Stopping between segments is safe: each is published (and each pull applied) on its own.
            try Task.checkCancellation()
            let page = try await store.ownChanges(after: position, limit: segmentSize)
            guard page.through > position else { return }
            if !page.isEmpty {
                let name = SegmentName(first: next, last: page.through)
                // Remembered before writing, so the segment is known as ours even if we die right after.
                try await store.recordPublishing(PublishedRange(first: name.first, last: name.last), hubID: hub.id)
                let plaintext = try SegmentCodec.encode(page.records)
                let sealed = try SegmentSeal.seal(
                    plaintext.bytes, format: plaintext.format, key: key, device: store.deviceID, name: name)
                do {
                    try hub.write(sealed, as: name, of: store.deviceID)
                } catch SyncError.segmentExists {
                    // Another copy of this database wrote these positions first.
                    try await store.forgetPublishing(PublishedRange(first: name.first, last: name.last), hubID: hub.id)
                    throw SyncError.copiedDatabase(device: store.deviceID, foreign: [name.fileName])
                }
                report.published += page.count
                report.segmentsWritten += 1
                progress.step(published: page.count)
                next = page.through + 1
            }
            try await store.markPublished(through: page.through, hubID: hub.id)
            position = page.through
        }
    }

    /// Applies every other device's segments after its anchor, in order. A segment that does not start
    /// right after the anchor means one before it has not arrived yet (Syncthing and Dropbox copy files
    /// in any order): that device waits for it. A segment that cannot be read or opened is reported
    /// and holds its device back; the other devices still sync.
    private func pull(into report: inout SyncReport, progress: SyncProgress) async throws {
        let anchors = try await store.anchors(hubID: hub.id)
        for device in try hub.devices() where device != store.deviceID {
            var anchor = anchors[device] ?? 0
            for segment in try hub.segments(of: device) where segment.last > anchor {
                try Task.checkCancellation()
                guard segment.first <= anchor + 1 else {
                    report.waiting.append(SegmentGap(device: device, first: anchor + 1, last: segment.first - 1))
                    break
                }
                let content: SegmentContent
                do {
                    let sealed: [UInt8]
                    do { sealed = try hub.read(segment, of: device) } catch {
                        throw SegmentContentError("it cannot be read (\(error))")
                    }
                    let opened = try SegmentSeal.open(sealed, key: key, device: device, name: segment)
                    content = try SegmentCodec.decode(opened.plaintext, format: opened.format, device: device)
                } catch let error as SegmentContentError {
                    // Not applied, and the anchor stays before it; later segments of this device wait too.
                    report.failures.append(SegmentFailure(device: device, segment: segment.fileName, reason: error.description))
                    progress.step()
                    break
                }
                for refused in content.refused {
                    report.refused.append(RefusedRecord(
                        device: device, segment: segment.fileName, kind: refused.kind.noun, index: refused.index,
                        reason: refused.reason))
                }
                let outcome = try await store.applyReceived(content.records, from: device, through: segment.last, hubID: hub.id)
                report.received += outcome.applied
                report.unchanged += outcome.unchanged
                report.devicesHeardFrom.insert(device)
                progress.step(applied: outcome.applied)
                anchor = segment.last
            }
        }
    }
}

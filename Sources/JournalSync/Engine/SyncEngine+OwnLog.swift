import JournalKit

extension SyncEngine {
    /// Checks this device's own log on the hub against what this journal wrote, before publishing
    /// (`OwnLogReview` decides, from what is read here):
    ///
    /// - a file that is not a segment, or a segment that does not open with the key or is not signed
    ///   by this device, is junk: set aside (kept for a person to look at) and reported by its name;
    /// - a segment this journal did not write, signed by this device, whose changes this journal holds
    ///   is an older copy a copy tool brought back: left there, said once;
    /// - one with changes this journal lacks is what this journal published before it was put back from
    ///   a backup, taken back; or, beside a segment this journal wrote at the same positions, was
    ///   written by another copy of this database, and nothing is published;
    /// - a segment of this journal's that changed and no longer opens is set aside, and, with every
    ///   segment that went missing, written again from what this journal holds for its positions.
    ///
    /// A crash between remembering a segment and marking it published is settled here too: kept if it
    /// reached the hub, forgotten if not (its changes are still to publish).
    func checkOwnLog(ledger: inout SyncLedger, leftInPlace: Set<HubEntry>, into report: inout SyncReport, progress: SyncProgress) async throws {
        let device = store.deviceID
        try await hub.removeLeftovers(of: device)
        let log = try await hub.log(of: device)
        let findings = try await inspect(log, ledger: ledger, leftInPlace: leftInPlace, progress: progress)
        let review = OwnLogReview.make(
            published: ledger.published, publishedThrough: ledger.publishedThrough, log: log, findings: findings,
            canRemoveSegments: hub.canRemoveSegments)
        for action in review.actions {
            try await carryOut(action, ledger: &ledger, leftInPlace: leftInPlace, into: &report, progress: progress)
        }
        guard review.copiedBy.isEmpty else { throw SyncError.copiedDatabase(device: device, foreign: review.copiedBy) }
    }

    /// What each segment of this device's log that is not as this journal wrote it holds. One an
    /// earlier sync said and left there is not read again.
    private func inspect(
        _ log: DeviceLog, ledger: SyncLedger, leftInPlace: Set<HubEntry>, progress: SyncProgress
    ) async throws -> [SegmentName: OwnLogReview.Finding] {
        let written = Dictionary(ledger.published.map { ($0.range, $0.fingerprint) }, uniquingKeysWith: { first, _ in first })
        var findings: [SegmentName: OwnLogReview.Finding] = [:]
        for entry in log.segments {
            let range = PublishedRange(first: entry.name.first, last: entry.name.last)
            if let fingerprint = written[range], fingerprint == entry.fingerprint { continue }
            if written[range] == nil, leftInPlace.contains(HubEntry(device: store.deviceID, name: entry.name.fileName)) {
                findings[entry.name] = .saidBefore
                continue
            }
            do {
                let content = try await open(entry.name, of: store.deviceID)
                let lacking = written[range] != nil ? [] : try await store.notHeld(content.records)
                // Only what this device signed is its own past: an unsigned segment anyone with the first key wrote.
                findings[entry.name] = lacking.isEmpty ? .known : content.format < SegmentSeal.signedFormat ? .unsigned : .unknown(lacking)
            } catch is SegmentContentError {
                findings[entry.name] = .notOurs
            }
            progress.step()
        }
        return findings
    }

    /// Carries out one thing the review of this device's log decided.
    private func carryOut(
        _ action: OwnLogReview.Action, ledger: inout SyncLedger, leftInPlace: Set<HubEntry>, into report: inout SyncReport, progress: SyncProgress
    ) async throws {
        switch action {
        case .setAside(let name, let reason):
            guard !leftInPlace.contains(HubEntry(device: store.deviceID, name: name)) else { return }
            _ = try await setAside(name, because: reason, into: &report)
        case .leave(let name, let reason):
            guard !leftInPlace.contains(HubEntry(device: store.deviceID, name: name)) else { return }
            report.setAside.append(SetAsideFile(device: store.deviceID, name: name, reason: reason, outcome: .left, at: report.at))
        case .replaceDamaged(let name):
            if !leftInPlace.contains(HubEntry(device: store.deviceID, name: name.fileName)),
                try await setAside(name.fileName, because: "it was damaged; it is written again", into: &report)
            {
                try await rewrite(PublishedRange(first: name.first, last: name.last), ledger: &ledger, into: &report, progress: progress)
            } else {
                reportDamaged(name, into: &report)
            }
        case .reportDamaged(let name):
            // A hub that keeps every segment for good cannot take it back: its readers report it.
            reportDamaged(name, into: &report)
        case .refingerprint(let range, let fingerprint):
            try await store.recordWritten(fingerprint, of: range, publishing: false, in: &ledger)
        case .takeBack(let name, let fingerprint, let records):
            report.takenBack += try await store.takeBack(
                records, range: PublishedRange(first: name.first, last: name.last), fingerprint: fingerprint, in: &ledger)
        case .forget(let range):
            try await store.forgetPublishing(range, in: &ledger)
        case .rewrite(let range):
            try await rewrite(range, ledger: &ledger, into: &report, progress: progress)
        case .markPublished(let position):
            try await store.markPublished(through: position, in: &ledger)
        }
    }

    /// Writes a segment of this journal's again, from what it holds now for its positions.
    private func rewrite(_ range: PublishedRange, ledger: inout SyncLedger, into report: inout SyncReport, progress: SyncProgress) async throws {
        try Task.checkCancellation()
        let name = SegmentName(first: range.first, last: range.last)
        try await writeOwn(name, records: store.ownRecords(in: range.first...range.last, relayThrough: ledger.relayThrough), publishing: false, ledger: &ledger)
        report.republished.append(name.fileName)
        progress.step()
    }

    private func reportDamaged(_ name: SegmentName, into report: inout SyncReport) {
        report.failures.append(SegmentFailure(device: store.deviceID, segment: name.fileName, reason: "this device's own segment no longer opens"))
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

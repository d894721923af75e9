import JournalKit

extension SyncEngine {
    /// How often one sync lists a log again whose segments go as it reads them.
    static let relistingsPerLog = 3

    /// Applies every other device's segments after its anchor, in order. Where several segments start
    /// at or before the next position (a larger one that covers smaller ones, or a file that is not
    /// that device's), the one reaching furthest that opens is applied; what does not open is reported
    /// and never holds the log back while another segment can be applied. When no segment starts
    /// there, one has not arrived yet (Syncthing and Dropbox copy files in any order): that device
    /// waits for it, and the journal remembers since when. The other devices still sync.
    ///
    /// A file in another device's log that this user cannot read, or that is not a regular file (any
    /// member of a shared hub can plant one), is not that device's segment: it is passed over, said
    /// once (`leftInPlace` holds what earlier syncs said), and never counted as a failure.
    ///
    /// `only` names the devices whose logs are read, when not all are (`SyncScope.logs`).
    func pull(
        only: Set<DeviceID>? = nil, ledger: inout SyncLedger, leftInPlace: Set<HubEntry>, into report: inout SyncReport, progress: SyncProgress
    ) async throws {
        for device in try await hub.devices() where device != store.deviceID && only?.contains(device) != false {
            try await pullLog(of: device, ledger: &ledger, leftInPlace: leftInPlace, into: &report, progress: progress)
        }
    }

    /// Reads one device's log past its anchor, position by position: what is tried at each is found
    /// (`attempt`), what to do is decided (`LogPosition.step`), and done here.
    private func pullLog(
        of device: DeviceID, ledger: inout SyncLedger, leftInPlace: Set<HubEntry>, into report: inout SyncReport, progress: SyncProgress
    ) async throws {
        let say = PassingOver(leftInPlace: leftInPlace)
        // Not a member (`Membership`): nothing more of its log is read until it is one.
        if try await isOutside(device, readFrom: ledger.readFrom(device)) { return say(device, notMemberReason(device), into: &report) }
        // A log found to be no member's is read only past what was found then.
        var anchor = ledger.readFrom(device)
        let start = anchor
        let everApplied = (ledger.anchors[device] ?? 0) > 0
        var waiting: (first: Int64, last: Int64)?
        var relisted = 0
        guard var log = try await listLog(of: device, say: say, into: &report) else { return }
        var segments = log.names
        positions: while true {
            try Task.checkCancellation()
            if let revocation = epochs.revoked[device], anchor >= revocation.through {
                // Nothing past what was taken of a revoked device counts: said once, and passed over.
                if (log.highest ?? 0) > anchor { say(device, revokedReason(device, revocation), into: &report) }
                break
            }
            let candidates = LogPosition.candidates(segments, after: anchor)
            guard !candidates.isEmpty else {
                waiting = LogPosition.gap(segments, after: anchor)
                break
            }
            let attempts = try await attempt(candidates, of: device, segments: &segments, say: say, into: &report)
            let card = try await card(of: device)
            let step = LogPosition.step(attempts, anchor: anchor, relisted: relisted, hasCard: card != nil, signedFrom: card?.signedFrom)
            if attempts.gone == nil { progress.step() }
            switch step {
            case .apply:
                guard let (segment, content) = attempts.opened else { break positions }
                try await apply(content, of: segment, from: device, ledger: &ledger, into: &report, progress: progress)
                report.skipped += attempts.failures
                anchor = segment.last
            case .relist:
                relisted += 1
                guard let relistedLog = try await listLog(of: device, say: say, into: &report) else { break positions }
                log = relistedLog
                segments = log.names
            case .wait(let first, let last):
                waiting = (first, last)
                break positions
            case .passOver(let reason):
                say(device, reason, into: &report)
                break positions
            case .skipUnsigned(let segment, let reason):
                _ = try await store.applyReceived([], from: device, through: segment.last, in: &ledger)
                say(device, reason, file: segment.fileName, into: &report)
                anchor = segment.last
            case .lookAgain:
                continue
            case .fail(let failures):
                try await fail(device, failures, log: log, everApplied: everApplied || anchor > start, say: say, ledger: &ledger, into: &report)
                break positions
            }
        }
        try await noteWaiting(device, waiting, into: &report)
    }

    /// True when `device` has a card but is no member, and its log was read as far as a record took it.
    private func isOutside(_ device: DeviceID, readFrom: Int64) async throws -> Bool {
        guard try await card(of: device) != nil, epochs.revoked[device] == nil else { return false }
        return !membership.admits(device) && readFrom >= epochs.takenThrough(device) ?? 0
    }

    /// The log of `device` as the hub lists it; nil, said once, when it cannot be read (a link, or a
    /// folder of another user's in a shared hub), which holds back that device alone.
    private func listLog(of device: DeviceID, say: PassingOver, into report: inout SyncReport) async throws -> DeviceLog? {
        do { return try await hub.log(of: device) } catch SyncError.hub(let failure) where failure.condition == .unusableEntry {
            say(device, failure.reason, into: &report)
            return nil
        }
    }

    /// Tries `candidates`, the segments that start at the next position, furthest-reaching first, until
    /// one opens or the log cannot go on. A file that is no segment is passed over, said once, and taken
    /// out of `segments`, this sync's view of the log.
    private func attempt(
        _ candidates: [SegmentName], of device: DeviceID, segments: inout [SegmentName], say: PassingOver, into report: inout SyncReport
    ) async throws -> LogPosition.Attempts {
        var attempts = LogPosition.Attempts(device: device)
        for segment in candidates {
            do {
                attempts.opened = (segment, try await open(segment, of: device))
                return attempts
            } catch let error as SegmentContentError {
                switch error.cause {
                case .notAdmitted:
                    attempts.notAdmitted = error.description
                    return attempts
                case .awaitingCard:
                    // Its card is on the hub but was refused: it will not come.
                    if let refused = try await cardRefusal(device) {
                        attempts.notAdmitted = "its device's card was refused (\(refused)), so its signatures cannot be checked"
                        return attempts
                    }
                    attempts.awaitingCard = attempts.awaitingCard ?? segment
                case .unvouched: attempts.unvouched.append((segment, error.description))
                case .pastRevocation: attempts.pastRevocation = error.description
                case .unusableFile:
                    // Not a segment: out of this sync's view of the log, as if it were not there.
                    segments.removeAll { $0 == segment }
                    say(device, error.description, file: segment.fileName, into: &report)
                case .content: attempts.failures.append(SegmentFailure(device: device, segment: segment.fileName, reason: error.description))
                }
            } catch SyncError.hub(let failure) where failure.condition == .gone {
                attempts.gone = segment
                return attempts
            }
        }
        return attempts
    }

    /// Why `device`'s card on the hub was refused, when it was: its signed segments will not be checked.
    private func cardRefusal(_ device: DeviceID) async throws -> String? {
        if let reason = cardsRead.refused[device] { return reason }
        let item = try await store.hubItems(.card, hubID: hub.id, after: nil, through: device.rawValue, only: device.rawValue)[device.rawValue]
        return item?.outcome == .refused ? item?.reason ?? "" : nil
    }

    /// Applies a segment's records and moves its device's anchor past it, in one transaction.
    private func apply(
        _ content: SegmentContent, of segment: SegmentName, from device: DeviceID, ledger: inout SyncLedger, into report: inout SyncReport,
        progress: SyncProgress
    ) async throws {
        for refused in content.refused {
            report.refused.append(RefusedRecord(
                device: device, segment: segment.fileName, kind: refused.kind.noun, index: refused.index, reason: refused.reason))
        }
        foundOnHub?.formUnion(content.records.map(RecordOnHub.init))
        let outcome = try await store.applyReceived(content.records, from: device, through: segment.last, in: &ledger)
        report.received += outcome.applied
        report.revived += outcome.revived.count
        report.unchanged += outcome.unchanged
        report.devicesHeardFrom.insert(device)
        progress.step(applied: outcome.applied)
    }

    /// A position where nothing applies: a log no member wrote is refused for good (said once, never
    /// listed again, so that a million such rows cost one sync); any other device is held back there.
    private func fail(
        _ device: DeviceID, _ failures: [SegmentFailure], log: DeviceLog, everApplied: Bool, say: PassingOver, ledger: inout SyncLedger,
        into report: inout SyncReport
    ) async throws {
        guard try await isNoMember(device, everApplied: everApplied, log: log) else {
            // Not applied, and the anchor stays before it; later segments of this device wait too.
            report.failures += failures
            return
        }
        let through = log.highest ?? ledger.readFrom(device)
        try await store.refuseLog(of: device, through: through, in: &ledger)
        say(device, "none of its segments opens with the hub's key (\(failures.first?.reason ?? "")): no device of this hub wrote them, so "
            + "they are passed over through position \(through)", news: true, into: &report)
    }

    /// Remembers since when this journal waits for positions of `device`'s log, or that it waits no more.
    private func noteWaiting(_ device: DeviceID, _ waiting: (first: Int64, last: Int64)?, into report: inout SyncReport) async throws {
        guard let waiting else { return try await store.clearWaiting(for: device, hubID: hub.id) }
        let since = try await store.noteWaiting(for: device, first: waiting.first, last: waiting.last, at: store.clock.now(), hubID: hub.id)
        report.waiting.append(WaitingPositions(device: device, first: waiting.first, last: waiting.last, since: since))
    }

    /// True when `device`'s log on a hub whose segments never change is no member's: nothing of it was
    /// ever applied here, no card of it verified, and neither its first segment nor its last opens. (A
    /// member's log with one damaged row still has a last segment that opens; one whose last row
    /// another member forged has a card.)
    private func isNoMember(_ device: DeviceID, everApplied: Bool, log: DeviceLog) async throws -> Bool {
        guard hub.segmentsNeverChange, !everApplied, let last = log.segments.last?.name,
            try await card(of: device) == nil
        else { return false }
        do {
            _ = try await open(last, of: device)
            return false
        } catch is SegmentContentError {
            return true
        }
    }
}

/// Says once that a file of a device's log (its whole log when unnamed) is passed over, and why: not
/// again in this sync (a log-only read that went whole), nor when an earlier sync said it, unless it is
/// news (a log refused through a position further on).
struct PassingOver {
    let leftInPlace: Set<HubEntry>

    func callAsFunction(_ device: DeviceID, _ reason: String, file name: String = "", news: Bool = false, into report: inout SyncReport) {
        let entry = HubEntry(device: device, name: name)
        guard news || !leftInPlace.contains(entry), !report.mentions(entry) else { return }
        report.setAside.append(SetAsideFile(device: device, name: name, reason: reason, outcome: .passedOver, at: report.at))
    }
}

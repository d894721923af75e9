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
        /// Why `device`'s card on the hub was refused, when it was: its signed segments will not be checked.
        func cardRefusal(_ device: DeviceID) async throws -> String? {
            if let reason = cardsRead.refused[device] { return reason }
            let item = try await store.hubItems(.card, hubID: hub.id, after: nil, through: device.rawValue, only: device.rawValue)[device.rawValue]
            return item?.outcome == .refused ? item?.reason ?? "" : nil
        }
        /// Says once that the file `name` in `device`'s log (its whole log when empty) is passed over, and why:
        /// not again in this sync (a log-only read that went whole), nor when an earlier sync said it
        /// unless it is news (`news`: a log refused through a position further on).
        func passOver(_ device: DeviceID, _ reason: String, file name: String = "", news: Bool = false) {
            let entry = HubEntry(device: device, name: name)
            guard news || !leftInPlace.contains(entry), !report.mentions(entry) else { return }
            report.setAside.append(SetAsideFile(device: device, name: name, reason: reason, outcome: .passedOver, at: report.at))
        }
        for device in try await hub.devices() where device != store.deviceID && only?.contains(device) != false {
            if try await card(of: device) != nil, !membership.admits(device), epochs.revoked[device] == nil,
                ledger.readFrom(device) >= epochs.takenThrough(device) ?? 0
            {
                // Not a member (`Membership`): nothing more of its log is read until it is one.
                passOver(device, notMemberReason(device))
                continue
            }
            // A log found to be no member's is read only past what was found then.
            var anchor = ledger.readFrom(device)
            let start = anchor
            let everApplied = (ledger.anchors[device] ?? 0) > 0
            var waiting: (first: Int64, last: Int64)?
            var segments: [SegmentName]
            var log: DeviceLog
            // How often this log was listed again because a segment went before it was read.
            var relisted = 0
            do { log = try await hub.log(of: device) } catch SyncError.hub(let failure) where failure.condition == .unusableEntry {
                // One device's log that cannot be read (a link, or a folder of another user's in a shared
                // hub) holds back that device alone.
                passOver(device, failure.reason)
                continue
            }
            segments = log.names
            while true {
                try Task.checkCancellation()
                if let revocation = epochs.revoked[device], anchor >= revocation.through {
                    // Nothing past what was taken of a revoked device counts: said once, and passed over.
                    if (log.highest ?? 0) > anchor { passOver(device, revokedReason(device, revocation)) }
                    break
                }
                let candidates = segments.filter { $0.first <= anchor + 1 && $0.last > anchor }
                    .sorted { ($0.last, $0.first) > ($1.last, $1.first) }
                guard !candidates.isEmpty else {
                    if let next = segments.filter({ $0.first > anchor + 1 }).min() { waiting = (anchor + 1, next.first - 1) }
                    break
                }
                var failures: [SegmentFailure] = []
                var applied = false
                var awaitingCard: SegmentName?
                var pastRevocation: String?
                var notAdmitted: String?
                var unvouched: [(segment: SegmentName, reason: String)] = []
                var gone: SegmentName?
                for segment in candidates {
                    let content: SegmentContent
                    do { content = try await open(segment, of: device) } catch let error as SegmentContentError {
                        if error.cause == .notAdmitted {
                            notAdmitted = error.description
                            break
                        } else if error.cause == .unvouched {
                            unvouched.append((segment, error.description))
                        } else if error.cause == .awaitingCard, let cardRefused = try await cardRefusal(device) {
                            // Its card is on the hub but was refused: it will not come.
                            notAdmitted = "its device's card was refused (\(cardRefused)), so its signatures cannot be checked"
                            break
                        } else if error.cause == .awaitingCard {
                            awaitingCard = awaitingCard ?? segment
                        } else if error.cause == .pastRevocation {
                            pastRevocation = error.description
                        } else if error.cause == .unusableFile {
                            // Not a segment: out of this sync's view of the log, as if it were not there.
                            segments.removeAll { $0 == segment }
                            passOver(device, error.description, file: segment.fileName)
                        } else {
                            failures.append(SegmentFailure(device: device, segment: segment.fileName, reason: error.description))
                        }
                        continue
                    } catch SyncError.hub(let failure) where failure.condition == .gone {
                        gone = segment
                        break
                    }
                    for refused in content.refused {
                        report.refused.append(RefusedRecord(
                            device: device, segment: segment.fileName, kind: refused.kind.noun, index: refused.index,
                            reason: refused.reason))
                    }
                    foundOnHub?.formUnion(content.records.map(RecordOnHub.init))
                    let outcome = try await store.applyReceived(content.records, from: device, through: segment.last, in: &ledger)
                    report.received += outcome.applied
                    report.revived += outcome.revived.count
                    report.unchanged += outcome.unchanged
                    report.devicesHeardFrom.insert(device)
                    progress.step(applied: outcome.applied)
                    anchor = segment.last
                    applied = true
                    break
                }
                if let gone {
                    // The log moved on between its listing and the read (its device compacted, a sync
                    // tool at work): listed again, it shows what replaced the segment. A log that keeps
                    // moving waits for the next sync, as a segment on its way does.
                    guard relisted < Self.relistingsPerLog else {
                        waiting = (anchor + 1, gone.last)
                        break
                    }
                    relisted += 1
                    do { log = try await hub.log(of: device) } catch SyncError.hub(let failure) where failure.condition == .unusableEntry {
                        passOver(device, failure.reason)
                        break
                    }
                    segments = log.names
                    continue
                }
                progress.step()
                if let notAdmitted {
                    passOver(device, notAdmitted)
                    break
                } else if applied {
                    report.skipped += failures
                } else if let awaitingCard {
                    // Signed by its device, whose card is still on its way: waited for as a segment on its
                    // way is, and applied when it comes.
                    waiting = (anchor + 1, awaitingCard.last)
                    break
                } else if failures.isEmpty, let pastRevocation {
                    // Only segments reaching past a revocation are left: what they hold before it cannot be
                    // told from what they hold after it, and nothing past a revocation counts. Passed over,
                    // said once, as the rest of a revoked device's log is; not a failure of the sync.
                    passOver(device, pastRevocation)
                    break
                } else if failures.isEmpty, !unvouched.isEmpty, try await card(of: device) == nil {
                    // A log without a card is unsigned throughout: no member's past what was vouched for.
                    passOver(device, unvouched[0].reason)
                    break
                } else if failures.isEmpty, let signedFrom = try await card(of: device)?.signedFrom,
                    let skipped = unvouched.filter({ $0.segment.last < signedFrom }).min(by: { $0.segment.last < $1.segment.last })
                {
                    // A member's unsigned segment from before it signed that no record vouched for, and nothing
                    // else there opens: passed over, said once, and its log read on past it (what it signed
                    // is its own, and nothing unsigned reaches that far).
                    _ = try await store.applyReceived([], from: device, through: skipped.segment.last, in: &ledger)
                    passOver(device, skipped.reason, file: skipped.segment.fileName)
                    anchor = skipped.segment.last
                    continue
                } else if failures.isEmpty && unvouched.isEmpty {
                    // Only files that are no segments were there: look again at the log without them.
                    continue
                } else if try await isNoMember(device, everApplied: everApplied || anchor > start, log: log) {
                    // Rows that never opened and never will, under an id no member has: said once, then
                    // never listed again, so that a million of them cost one sync, not every one.
                    try await store.refuseLog(of: device, through: log.highest ?? anchor, in: &ledger)
                    let reason = "none of its segments opens with the hub's key (\(failures.first?.reason ?? "")): no device of this "
                        + "hub wrote them, so they are passed over through position \(log.highest ?? anchor)"
                    passOver(device, reason, news: true)
                    break
                } else {
                    // Not applied, and the anchor stays before it; later segments of this device wait too.
                    report.failures += failures + unvouched.map { SegmentFailure(device: device, segment: $0.segment.fileName, reason: $0.reason) }
                    break
                }
            }
            if let waiting {
                let since = try await store.noteWaiting(
                    for: device, first: waiting.first, last: waiting.last, at: store.clock.now(), hubID: hub.id)
                report.waiting.append(WaitingPositions(device: device, first: waiting.first, last: waiting.last, since: since))
            } else {
                try await store.clearWaiting(for: device, hubID: hub.id)
            }
        }
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

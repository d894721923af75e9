import JournalKit

/// What the pull found at the next position of another device's log, and what it does about it: the
/// segments that start there, tried furthest-reaching first (`Attempts`), decided into one step
/// (`Step`). A value, tested without a hub (`LogPositionTests`); the engine's pull reads, then acts.
enum LogPosition {
    /// What trying the segments that start at a position found, until one applied or the log could
    /// not go on.
    struct Attempts {
        /// The device whose log it is.
        let device: DeviceID
        /// The segment that opened, and its content.
        var opened: (segment: SegmentName, content: SegmentContent)?
        var failures: [SegmentFailure] = []
        /// Signed by a device whose card has not arrived: it waits.
        var awaitingCard: SegmentName?
        /// Reaching past its device's revocation.
        var pastRevocation: String?
        /// Its device is not a member (or its card was refused): nothing more of the log is read.
        var notAdmitted: String?
        /// Unsigned, past what a member vouched for.
        var unvouched: [(segment: SegmentName, reason: String)] = []
        /// Gone between the listing and the read: the log moved on.
        var gone: SegmentName?
    }

    /// What the pull does next with the log.
    enum Step: Equatable {
        /// Apply the segment that opened, and go on past it; the segments that failed beside it are
        /// said as passed over.
        case apply
        /// List the log again: a segment went before it was read.
        case relist
        /// Wait for these positions: a segment on its way, or a card.
        case wait(first: Int64, last: Int64)
        /// Pass over the rest of the log, said once.
        case passOver(String)
        /// Pass over this unsigned segment of a member, from before it signed, said once, and read on past it.
        case skipUnsigned(SegmentName, String)
        /// Only files that are no segments were there: look at the log again without them.
        case lookAgain
        /// Nothing applies and nothing explains why: a failure, or a log no member wrote (`isNoMember`).
        case fail([SegmentFailure])
    }

    /// The segments to try at the position after `anchor`: those that start at or before it and reach
    /// past the anchor, furthest-reaching first.
    static func candidates(_ segments: [SegmentName], after anchor: Int64) -> [SegmentName] {
        segments.filter { $0.first <= anchor + 1 && $0.last > anchor }.sorted { ($0.last, $0.first) > ($1.last, $1.first) }
    }

    /// The positions still to come before the next segment past `anchor`, when one is listed further on.
    static func gap(_ segments: [SegmentName], after anchor: Int64) -> (first: Int64, last: Int64)? {
        segments.filter { $0.first > anchor + 1 }.min().map { (anchor + 1, $0.first - 1) }
    }

    /// The step for `attempts` at the position after `anchor`. `relisted`: how often the log was listed
    /// again in this sync; `hasCard`: its device has a card; `signedFrom`: where that card says it signs.
    static func step(_ attempts: Attempts, anchor: Int64, relisted: Int, hasCard: Bool, signedFrom: Int64?) -> Step {
        if let gone = attempts.gone {
            // The log moved on between its listing and the read (its device compacted, a sync tool at
            // work): listed again, it shows what replaced the segment; one that keeps moving waits.
            return relisted < SyncEngine.relistingsPerLog ? .relist : .wait(first: anchor + 1, last: gone.last)
        }
        if let notAdmitted = attempts.notAdmitted { return .passOver(notAdmitted) }
        if attempts.opened != nil { return .apply }
        // Signed by its device, whose card is still on its way: waited for as a segment on its way is.
        if let awaiting = attempts.awaitingCard { return .wait(first: anchor + 1, last: awaiting.last) }
        let unvouched = attempts.unvouched
        if attempts.failures.isEmpty {
            // Only segments reaching past a revocation: what they hold before it cannot be told from
            // what they hold after it, and nothing past a revocation counts.
            if let pastRevocation = attempts.pastRevocation { return .passOver(pastRevocation) }
            // A log without a card is unsigned throughout: no member's past what was vouched for.
            if !unvouched.isEmpty, !hasCard { return .passOver(unvouched[0].reason) }
            // A member's unsigned segment from before it signed that no record vouched for: passed over,
            // and its log read on past it (what it signed is its own, and nothing unsigned reaches that far).
            if let signedFrom, let skipped = unvouched.filter({ $0.segment.last < signedFrom }).min(by: { $0.segment.last < $1.segment.last }) {
                return .skipUnsigned(skipped.segment, skipped.reason)
            }
            if unvouched.isEmpty { return .lookAgain }
        }
        return .fail(attempts.failures + unvouched.map { SegmentFailure(device: attempts.device, segment: $0.segment.fileName, reason: $0.reason) })
    }
}

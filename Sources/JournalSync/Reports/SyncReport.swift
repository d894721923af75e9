import JournalKit

/// What one sync moved, and what it found wrong.
public struct SyncReport: Sendable, Equatable {
    /// This device's changes sent to the hub.
    public var published = 0
    /// Of those, other devices' records this journal held, published by it because it moved to this
    /// hub from another (`SyncLedger.relayThrough`).
    public var moved = 0
    public var segmentsWritten = 0
    /// Changes from other devices that changed this journal.
    public var received = 0
    /// Changes from other devices this journal already had (or had newer versions of).
    public var unchanged = 0
    /// Of the changes received, those that brought back a record deleted here: made on another device
    /// after the deletion, before it heard of it; the later change wins, and is said.
    public var revived = 0
    /// Devices whose changes arrived in this sync.
    public var devicesHeardFrom: Set<DeviceID> = []
    /// Segments that cannot be applied, each holding its device back.
    public var failures: [SegmentFailure] = []
    /// Files in other devices' logs that do not open, passed over for a segment that does.
    public var skipped: [SegmentFailure] = []
    /// Records other devices published that break the rules: refused here as on every device.
    public var refused: [RefusedRecord] = []
    /// This device's own changes that break the rules (an older journal let them in): not published.
    public var unpublishable = 0
    /// Files this device found in its own log and moved out of it.
    public var setAside: [SetAsideFile] = []
    /// Notes said with the rest of `setAside`, which the journal kept already when it acted on them.
    public var keptNotes: [SetAsideFile] = []
    /// Cards and key epoch records refused on the hub beyond those named in `setAside`: counted, not
    /// named, however many junk files or rows there are (`sync status` counts them all).
    public var moreSetAside = 0
    /// This device's segments that were missing or damaged on the hub, written again.
    public var republished: [String] = []
    /// The journal's file was a backup put back in its place, and this sync caught it up.
    public var restored = false
    /// Changes this device had published since that backup, which this journal had lost, taken back.
    public var takenBack = 0
    /// Pairs of this device's segments replaced by one, keeping its log small.
    public var segmentsMerged = 0
    /// Devices whose next segment is not on the hub yet (a sync tool still copying it).
    public var waiting: [WaitingPositions] = []
    /// When the sync ran: how long a device has been waited for is counted to here.
    public var at = Timestamp(milliseconds: 0)

    public init() {}

    public var movedAnything: Bool { published > 0 || received > 0 || unchanged > 0 || !republished.isEmpty || restored || takenBack > 0 }

    /// One paragraph for people: what went up, what came down, and what it waits for.
    public var summary: String {
        var sentences: [String] = []
        var moved: [String] = []
        if published > 0 {
            let relayed = self.moved > 0 ? " (\(self.moved) of them other devices', which this journal brought from its previous hub)" : ""
            moved.append("published \(plural(published, "change")) in \(plural(segmentsWritten, "segment"))\(relayed)")
        }
        if received > 0 || unchanged > 0 {
            // Counted as they came: each change is new here, or one this journal had (or had newer).
            var text = "received \(plural(received + unchanged, "change")) from \(plural(devicesHeardFrom.count, "device"))"
            if unchanged > 0 { text += received == 0 ? ", all already here" : ": \(received) new, \(unchanged) already here" }
            moved.append(text)
        }
        if !republished.isEmpty { moved.append("wrote again \(plural(republished.count, "segment")) missing or damaged on the hub") }
        if restored || takenBack > 0 {
            // A file replaced in place with its inode reused is not told from the original: what was taken back says it.
            moved.append("this journal was put back from a backup: it synced as a device that was offline, and took back "
                + "\(plural(takenBack, "change")) this device had published since")
        }
        if !moved.isEmpty {
            let sentence = moved.joined(separator: "; ")
            sentences.append(sentence.sentenceCased + ".")
        } else if waiting.isEmpty && failures.isEmpty && setAside.isEmpty && moreSetAside == 0 {
            sentences.append("Nothing to sync: this journal and the hub agree.")
        } else {
            sentences.append("Nothing new to apply.")
        }
        if revived > 0 {
            sentences.append("\(plural(revived, "record")) deleted here came back: another device changed \(revived == 1 ? "it" : "them") "
                + "after the deletion, before it heard of it, and the later change stands (`journal list` shows a drink that came back; "
                + "`journal rm` takes it out again).")
        }
        for gap in waiting { sentences.append(gap.sentence(at: at)) }
        sentences += Self.setAsideSentences(keptNotes + setAside)
        if moreSetAside > 0 {
            sentences.append("Refused \(plural(moreSetAside, "more card or key record", "more cards or key records")) on the hub that "
                + "are no device's or epoch's of it (`journal sync status` counts them).")
        }
        if unpublishable > 0 {
            sentences.append("\(plural(unpublishable, "change")) of this journal break the journal's rules and were not published.")
        }
        if !refused.isEmpty { sentences.append(refusedSentence()) }
        return sentences.joined(separator: " ")
    }

    /// The summary with the segments that failed, as the journal records it for `journal sync status`.
    public var result: String {
        failures.isEmpty ? summary : summary + " \(failures.count) segment(s) could not be applied."
    }

    /// What this sync came to: segments that could not be applied make it bad data, as `journal sync`
    /// says with its exit status (`SyncError.segmentsFailed`).
    public var outcome: SyncOutcome {
        failures.isEmpty ? .succeeded(result) : SyncOutcome(failure: SyncError.segmentsFailed(failures).kind, message: result)
    }

    /// The records refused, the first few named with the rule each breaks, the rest counted (`--json`
    /// lists them all): `sync status` shows it until the next sync, and the records are not read again.
    private func refusedSentence(named limit: Int = 3) -> String {
        let named = refused.prefix(limit).map { "\($0.kind) \($0.index) of segment \($0.segment) of device \($0.device) (\($0.reason))" }
        return "Refused \(plural(refused.count, "record")) from other devices that break the journal's rules: "
            + named.joined(separator: ", ") + (refused.count > limit ? " and \(refused.count - limit) more" : "") + "."
    }

    /// What was set aside or passed over, in a few sentences however many files there were: the first
    /// few are named, the rest counted (`--json` and `sync status --json` list them all).
    public static func setAsideSentences(_ files: [SetAsideFile], named limit: Int = 3) -> [String] {
        func list(_ files: [SetAsideFile], own: Bool) -> String {
            let named = files.prefix(limit).map { file in
                let what = file.name.isEmpty ? "the log of device \(file.device)" : own ? file.name : "\(file.name) of device \(file.device)"
                return "\(what) (\(file.reason))"
            }
            return named.joined(separator: ", ") + (files.count > limit ? " and \(files.count - limit) more" : "")
        }
        func count(_ files: [SetAsideFile]) -> String { files.count == 1 ? "a file" : "\(files.count) files" }
        let moved = files.filter { $0.outcome == .moved }
        let stuck = files.filter { $0.outcome == .left }
        let others = files.filter { $0.outcome == .passedOver }
        // Notes about the hub are said as they are.
        var sentences = files.filter { $0.outcome == .noted }.map { $0.reason.sentenceCased + "." }
        if !moved.isEmpty { sentences.append("Set aside \(count(moved)) from this device's log, which it did not write: \(list(moved, own: true)).") }
        if !stuck.isEmpty { sentences.append("Left \(count(stuck)) in this device's log: \(list(stuck, own: true)).") }
        let logs = others.filter { $0.name != "card" && !$0.name.hasPrefix("epochs/") }
        let onHub = others.filter { $0.name == "card" || $0.name.hasPrefix("epochs/") }
        if !logs.isEmpty { sentences.append("Passed over \(count(logs)) that cannot be read in other devices' logs: \(list(logs, own: false)).") }
        if !onHub.isEmpty {
            sentences.append("Refused \(onHub.count == 1 ? "a card or key record" : "\(onHub.count) cards or key records") on the hub: \(list(onHub, own: false)).")
        }
        return sentences
    }

    /// "just now", "within 4 min", "25 min ago", "4 days ago", or "never": when a device last did
    /// something, by the time its card tells, seen at `now`. A card is written again for its times
    /// alone only when they are `SyncEngine.cardRefreshInterval` old, so the deed may be that much
    /// later than the card says: under that, the card tells only that it was no longer ago.
    public static func ago(_ instant: Timestamp?, at now: Timestamp) -> String {
        guard let instant else { return "never" }
        let elapsed = now.milliseconds - instant.milliseconds
        if elapsed < 60_000 { return "just now" }
        if elapsed < SyncEngine.cardRefreshInterval { return "within \((elapsed + 59_999) / 60_000) min" }
        return span(from: instant, to: now) + " ago"
    }

    /// "3 min", "2 h", "4 days": how long a device has been waited for.
    public static func span(from start: Timestamp, to end: Timestamp) -> String {
        let minutes = max(0, (end.milliseconds - start.milliseconds) / 60_000)
        if minutes < 120 { return "\(minutes) min" }
        if minutes < 48 * 60 { return "\(minutes / 60) h" }
        return "\(minutes / (24 * 60)) days"
    }

    private func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    private func plural(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
}

extension WaitingPositions {
    /// Which device is missing what, and for how long: what `journal sync` and `sync status` say.
    public func sentence(at now: Timestamp) -> String {
        "Waiting for device \(device): its changes at positions \(first) to \(last) are not on the hub yet "
            + "(missing since \(LocalTime.display(since)), \(SyncReport.span(from: since, to: now)))."
    }
}

/// A segment that could not be applied, and why.
public struct SegmentFailure: Sendable, Equatable, CustomStringConvertible {
    public let device: DeviceID
    public let segment: String
    public let reason: String

    public init(device: DeviceID, segment: String, reason: String) {
        self.device = device
        self.segment = segment
        self.reason = reason
    }

    public var description: String { "segment \(segment) of device \(device) cannot be applied: \(reason)" }
}

/// A record from another device that breaks the rules, refused on its own; its segment's other
/// records are applied.
public struct RefusedRecord: Sendable, Equatable, CustomStringConvertible {
    public let device: DeviceID
    public let segment: String
    /// "drink", "custom drink".
    public let kind: String
    /// Its place among the segment's records of its kind, from 1.
    public let index: Int
    public let reason: String

    public var description: String {
        "\(kind) \(index) of segment \(segment) of device \(device) was refused: \(reason)"
    }
}

extension SetAsideFile {
    /// The name of the note `journal sync` makes of a revoked device whose changes this journal kept.
    public static let keptName = "kept"
}

import JournalKit

/// What one sync moved.
public struct SyncReport: Sendable, Equatable {
    /// This device's changes sent to the hub.
    public var published = 0
    public var segmentsWritten = 0
    /// Changes from other devices that changed this journal.
    public var received = 0
    /// Changes from other devices this journal already had (or had newer versions of).
    public var unchanged = 0
    /// Devices whose changes arrived in this sync.
    public var devicesHeardFrom: Set<DeviceID> = []
    public var failures: [SegmentFailure] = []
    /// Records other devices published that break the rules: refused here as on every device.
    public var refused: [RefusedRecord] = []
    /// Devices whose next segment has not arrived yet (a sync tool still copying it).
    public var waiting: [SegmentGap] = []

    public init() {}

    public var movedAnything: Bool { published > 0 || received > 0 || unchanged > 0 }

    /// One line for people: what went up, what came down.
    public var summary: String {
        let gaps = waiting.map { " Waiting for the changes of device \($0.device) at positions \($0.first) to \($0.last): their segment has not arrived yet." }.joined()
        guard movedAnything else { return "Nothing to sync: this journal and the hub agree." + gaps }
        var parts: [String] = []
        if published > 0 {
            parts.append("published \(plural(published, "change")) in \(plural(segmentsWritten, "segment"))")
        }
        if received > 0 || unchanged > 0 {
            var text = "received \(plural(received, "change")) from \(plural(devicesHeardFrom.count, "device"))"
            if unchanged > 0 { text += " (\(unchanged) already here)" }
            parts.append(text)
        }
        let sentence = parts.joined(separator: "; ")
        return sentence.prefix(1).uppercased() + sentence.dropFirst() + "." + gaps
    }

    /// The summary with the segments that failed, as the journal records it for `journal sync status`.
    public var result: String {
        failures.isEmpty ? summary : summary + " \(failures.count) segment(s) could not be applied."
    }

    public var json: JSONValue {
        .object([
            ("published", .number(Double(published))), ("segments_written", .number(Double(segmentsWritten))),
            ("received", .number(Double(received))), ("unchanged", .number(Double(unchanged))),
            ("devices_heard_from", .array(devicesHeardFrom.sorted().map { .string($0.rawValue) })),
            ("waiting", .array(waiting.map { gap in
                .object([("device", .string(gap.device.rawValue)), ("first", .integer(gap.first)), ("last", .integer(gap.last))])
            })),
            ("refused", .array(refused.map { record in
                .object([
                    ("device", .string(record.device.rawValue)), ("segment", .string(record.segment)),
                    ("kind", .string(record.kind)), ("index", .integer(Int64(record.index))), ("reason", .string(record.reason)),
                ])
            })),
            ("failures", .array(failures.map { failure in
                .object([
                    ("device", .string(failure.device.rawValue)), ("segment", .string(failure.segment)),
                    ("reason", .string(failure.reason)),
                ])
            })),
        ])
    }

    private func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}

/// Positions of a device's log that this journal has not received, though later ones are on the hub.
public struct SegmentGap: Sendable, Equatable {
    public let device: DeviceID
    public let first: Int64
    public let last: Int64
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

import JournalKit

extension SyncReport {
    /// The report as `journal sync --json` prints it.
    public var json: JSONValue {
        func failures(_ list: [SegmentFailure]) -> JSONValue {
            .array(list.map { failure in
                .object([
                    ("device", .string(failure.device.rawValue)), ("segment", .optional(failure.segment)),
                    ("reason", .string(failure.reason)),
                ])
            })
        }
        return .object([
            ("published", .integer(Int64(published))), ("moved", .integer(Int64(moved))), ("restored", .bool(restored)), ("taken_back", .integer(Int64(takenBack))), ("segments_written", .integer(Int64(segmentsWritten))),
            ("received", .integer(Int64(received))), ("unchanged", .integer(Int64(unchanged))), ("revived", .integer(Int64(revived))),
            ("devices_heard_from", .array(devicesHeardFrom.sorted().map { .string($0.rawValue) })),
            ("waiting", .array(waiting.map(\.json))),
            ("failures", failures(self.failures)),
            ("skipped", failures(skipped)),
            ("refused", .array(refused.map { record in
                .object([
                    ("device", .string(record.device.rawValue)), ("segment", .string(record.segment)),
                    ("kind", .string(record.kind)), ("index", .integer(Int64(record.index))), ("reason", .string(record.reason)),
                ])
            })),
            ("set_aside", .array((keptNotes + setAside).map(\.json))),
            ("republished", .array(republished.map { .string($0) })),
            ("unpublishable", .integer(Int64(unpublishable))),
            ("summary", .string(summary)),
        ])
    }
}

extension SetAsideFile {
    /// A file set aside, as `journal sync --json` and `sync status --json` show it.
    public var json: JSONValue {
        .object([
            ("device", .string(device.rawValue)), ("name", .string(name)), ("reason", .string(reason)),
            ("outcome", .string(outcome.rawValue)), ("at", .string(LocalTime.iso8601(at))),
        ])
    }
}

extension WaitingPositions {
    /// A gap in another device's log, as `journal sync --json` and `sync status --json` show it.
    public var json: JSONValue {
        .object([
            ("device", .string(device.rawValue)), ("first", .integer(first)), ("last", .integer(last)),
            ("since", .string(LocalTime.iso8601(since))),
        ])
    }
}

/// The replicated records of every kind, as sync sees them: this device's own changes to publish, and
/// other devices' records to merge.
extension JournalStore {
    /// This device's own changes after `position`, of every kind, in sequence order, at most `limit`:
    /// what publishing sends. `through` is how far they cover the sequence: the last one's when the
    /// page is full, else every sequence number written so far (other devices' changes need no
    /// publishing). A record that breaks the rules (written by an older journal) is left out, and
    /// counted, because every other device would refuse it.
    ///
    /// Positions up to `relayThrough` are those of a journal that moved to a new hub: there, the
    /// records of every device are published, relayed for the machines that join it (a page ends at
    /// `relayThrough`, and this device's own follow).
    public func ownChanges(after position: Int64, limit: Int, relayThrough: Int64 = 0) throws -> OwnChanges {
        try connection.readTransaction { try ownChangesInOneSnapshot(after: position, limit: limit, relayThrough: relayThrough) }
    }

    private func ownChangesInOneSnapshot(after position: Int64, limit: Int, relayThrough: Int64) throws -> OwnChanges {
        let written = max(try connection.queryInteger(RecordKinds.lastSequenceSQL) ?? 0, position)
        let relaying = position < relayThrough
        let upper = relaying ? min(relayThrough, written) : written
        var records: [AnyReplicated] = []
        for kind in RecordKinds.stored {
            records += try logRecords(kind, of: relaying ? nil : deviceID, after: position, through: upper, limit: limit)
        }
        records.sort { $0.sequence < $1.sequence }
        var through = upper
        if records.count >= limit {
            // A full page: keep the first `limit` of the kinds merged, and cover up to the last kept.
            records.removeSubrange(limit...)
            through = records[limit - 1].sequence
        }
        var valid: [AnyReplicated] = []
        var invalid: [AnyReplicated] = []
        for record in records {
            if (try? record.base.validate()) != nil { valid.append(record) } else { invalid.append(record) }
        }
        return OwnChanges(records: valid, refused: invalid, through: through)
    }

    /// The records whose last write is in `positions`, of every kind, that pass the rules: what a
    /// segment of this device's log covering those positions holds now, to write it again. This
    /// device's own, and up to `relayThrough` (a journal that moved to a new hub) every device's.
    public func ownRecords(in positions: ClosedRange<Int64>, relayThrough: Int64 = 0) throws -> [AnyReplicated] {
        var records: [AnyReplicated] = []
        for part in Self.logParts(positions, relayThrough: relayThrough) {
            for kind in RecordKinds.stored {
                records += try logRecords(
                    kind, of: part.everyDevice ? nil : deviceID, after: part.range.lowerBound - 1, through: part.range.upperBound, limit: .max)
            }
        }
        return records.filter { (try? $0.base.validate()) != nil }.sorted { $0.sequence < $1.sequence }
    }

    /// How many records a segment of this device's log covering `positions` holds now (`ownRecords`).
    public func ownRecordCount(in positions: ClosedRange<Int64>, relayThrough: Int64 = 0) throws -> Int {
        var count: Int64 = 0
        for part in Self.logParts(positions, relayThrough: relayThrough) {
            for kind in RecordKinds.stored {
                let range: [SQLiteValue] = [.integer(part.range.lowerBound), .integer(part.range.upperBound)]
                count += try part.everyDevice
                    ? connection.queryInteger(kind.countAnyIn, range[0], range[1]) ?? 0
                    : connection.queryInteger(kind.countOwnIn, .text(deviceID.rawValue), range[0], range[1]) ?? 0
            }
        }
        return Int(count)
    }

    /// `positions` split where the log's records stop being every device's (up to `relayThrough`) and
    /// become this device's own.
    private static func logParts(_ positions: ClosedRange<Int64>, relayThrough: Int64) -> [(range: ClosedRange<Int64>, everyDevice: Bool)] {
        guard positions.lowerBound <= relayThrough else { return [(positions, false)] }
        guard positions.upperBound > relayThrough else { return [(positions, true)] }
        return [(positions.lowerBound...relayThrough, true), (relayThrough + 1...positions.upperBound, false)]
    }

    /// `kind`'s records of this device (`device` given) or of every device (nil), written after
    /// `position` and up to `through`.
    func logRecords<Payload: StoredPayload>(
        _ kind: Payload.Type, of device: DeviceID?, after position: Int64, through: Int64, limit: Int
    ) throws -> [AnyReplicated] {
        try Payload.table.records(of: device, after: position, through: through, limit: limit, in: connection).map(AnyReplicated.init)
    }

    /// How many of this device's changes are not on the hub yet.
    public func unpublishedCount(hubID: HubID) throws -> Int {
        let published = try hub().map { $0.hubID == hubID ? $0.publishedThrough : 0 } ?? 0
        var count: Int64 = 0
        for kind in RecordKinds.stored {
            count += try connection.queryInteger(kind.countOwn, .text(deviceID.rawValue), .integer(published)) ?? 0
        }
        return Int(count)
    }

    /// True when one of this device's changes past `published` is not on the hub yet: the first found
    /// answers, where `unpublishedCount` counts them all.
    func hasUnpublished(after published: Int64) throws -> Bool {
        for kind in RecordKinds.stored where try connection.queryInteger(kind.anyOwn, .text(deviceID.rawValue), .integer(published)) == 1 {
            return true
        }
        return false
    }

    /// Merges records received from `device` and moves its anchor to `position`, in one transaction:
    /// a crash applies all of it or none, and nothing twice. Each record replaces the local state of
    /// its key only when it supersedes it.
    ///
    /// The commit does not wait for the disk: what it holds is still on the hub, and the anchor moves
    /// in the same transaction, so a power failure that loses it loses the anchor too, and the next
    /// sync reads the same records again. A daemon applies one batch per ring of the doorbell; the
    /// fdatasync it saves was about a tenth of the CPU a ring cost.
    public func applyReceived(_ records: [AnyReplicated], from device: DeviceID, through position: Int64, hubID: HubID)
        throws -> ApplyOutcome
    {
        try connection.withoutWaitingForTheDisk {
            try write(nil) { context in
                var outcome = ApplyOutcome()
                var stamps = ClockEvidence(device: device, now: context.now)
                for record in records {
                    let merge = try record.merge(in: &context)
                    if merge.applied { outcome.applied += 1 } else { outcome.unchanged += 1 }
                    if merge.revived { outcome.revived.append(record.kind.noun) }
                    if merge.applied, record.version.origin == deviceID {
                        // Another device relayed this device's id: kept, and never published as this device's own.
                        try connection.cached("INSERT OR IGNORE INTO sync_received_own (seq) VALUES (?)").run([.integer(context.lastSequenceWritten)])
                    }
                    stamps.note(record.version, replacing: merge.replaced)
                }
                try connection.run(
                    """
                    INSERT INTO sync_anchors (hub_id, device_id, position) VALUES (?, ?, ?)
                    ON CONFLICT (hub_id, device_id) DO UPDATE SET position = max(position, excluded.position)
                    """,
                    .text(hubID.rawValue), .text(device.rawValue), .integer(position))
                if stamps.sawOwnRecords {
                    try connection.cached("UPDATE sync_anchors SET clock_ahead_ms = ?, clock_ahead_at = ? WHERE hub_id = ? AND device_id = ?").run([
                        stamps.aheadBy.map { .integer($0) } ?? .null, .integer(context.now.milliseconds), .text(hubID.rawValue), .text(device.rawValue),
                    ])
                }
                outcome.clockAheadBy = stamps.aheadBy
                return outcome
            }
        }
    }

    /// Gives this journal a new device id, for a database copied from another machine: its own
    /// changes are re-stamped with the new id and published again from the start under it, so none is
    /// lost and none is published under the other machine's id. Returns the new id; a store opened
    /// before this keeps the old one, so reopen.
    public func adoptNewDeviceIdentity() throws -> DeviceID {
        let new = DeviceID(rawValue: UUIDText.random())
        try write(nil) { context in
            for kind in RecordKinds.stored {
                for record in try logRecords(kind, of: deviceID, after: 0, through: .max, limit: .max) {
                    try record.restamped(origin: new).store(in: &context)
                }
            }
            try connection.run("UPDATE meta SET value = ? WHERE key = 'device_id'", .text(new.rawValue))
            // The device it takes over from: its first card says so, with a proof made with that
            // device's key, so that the members that vouched for the one vouch for the other.
            try connection.run(
                "INSERT INTO meta (key, value) VALUES ('succeeds', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                .text(deviceID.rawValue))
            try JournalStore.recordFileIdentity(path: path, in: connection)
            try connection.run("UPDATE sync_hub SET published_through = 0")
            try connection.run("DELETE FROM sync_published")
        }
        return new
    }
}

extension StoredPayload {
    static var countOwn: String { table.ownCountAfter }
    static var anyOwn: String { table.ownExistsAfter }
    static var countOwnIn: String {
        "SELECT count(*) FROM \(table.name) WHERE origin = ? AND seq NOT IN (SELECT seq FROM sync_received_own) AND seq BETWEEN ? AND ?"
    }
    static var countAnyIn: String { "SELECT count(*) FROM \(table.name) WHERE seq BETWEEN ? AND ?" }
}

/// What applying a batch received from another device did.
public struct ApplyOutcome: Sendable, Equatable {
    /// Records that changed this journal: newer than what it had.
    public var applied: Int
    /// Records it already had, or had newer versions of.
    public var unchanged: Int
    /// How far ahead of this machine's clock the device stamped the records of its own in the batch,
    /// when further than a clock may run (`ClockEvidence`).
    public var clockAheadBy: Int64?
    /// What the batch brought back that was deleted here, by kind ("drink"): another device changed it
    /// after the deletion, before it heard of it, and the later change wins.
    public var revived: [String] = []

    public init(applied: Int = 0, unchanged: Int = 0, clockAheadBy: Int64? = nil) {
        self.applied = applied
        self.unchanged = unchanged
        self.clockAheadBy = clockAheadBy
    }
}

/// A page of this device's own changes, for publishing.
public struct OwnChanges: Sendable {
    /// The records to publish, in sequence order.
    public let records: [AnyReplicated]
    /// Own records in the page that break the rules (an older journal wrote them): never published.
    public let refused: [AnyReplicated]
    /// The local sequence number the page covers up to.
    public let through: Int64

    public var isEmpty: Bool { records.isEmpty }
    public var count: Int { records.count }
}

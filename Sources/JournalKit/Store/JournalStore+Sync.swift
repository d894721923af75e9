/// Sync's bookkeeping: the hub, what was published, how far each remote device was applied, and the
/// merge of received records. Kept here because the journal's SQL lives in JournalKit.
extension JournalStore {
    /// The hub this journal is joined to, if any.
    public func hub() throws -> HubRecord? {
        try connection.query(
            "SELECT hub_id, kind, location, published_through, last_sync_at, last_sync_result FROM sync_hub"
        ) { row in
            HubRecord(
                hubID: row.text(0), kind: row.text(1), location: row.text(2), publishedThrough: row.int64(3),
                lastSyncAt: row.isNull(4) ? nil : Timestamp(milliseconds: row.int64(4)), lastSyncResult: row.optionalText(5))
        }.first
    }

    /// Joins this journal to a hub. Joining the same hub again keeps what was published and applied;
    /// another hub starts afresh (its anchors are its own).
    public func joinHub(id: String, kind: String, location: String) throws {
        try write(nil) { _ in
            let current = try hub()
            if current?.hubID == id {
                try connection.run("UPDATE sync_hub SET kind = ?, location = ?", .text(kind), .text(location))
            } else {
                try connection.run("DELETE FROM sync_hub")
                try connection.run(
                    "INSERT INTO sync_hub (singleton, hub_id, kind, location) VALUES (1, ?, ?, ?)",
                    .text(id), .text(kind), .text(location))
            }
        }
    }

    /// Segments this journal wrote, or was about to write, to the hub.
    public func publishedRanges(hubID: String) throws -> [PublishedRange] {
        try connection.query(
            "SELECT first, last FROM sync_published WHERE hub_id = ? ORDER BY first, last", [.text(hubID)]
        ) { PublishedRange(first: $0.int64(0), last: $0.int64(1)) }
    }

    /// Remembers that a segment is about to be written, before it is: a crash after the write then
    /// still knows the segment as this journal's own.
    public func recordPublishing(_ range: PublishedRange, hubID: String) throws {
        try write(nil) { _ in
            try connection.run(
                "INSERT OR IGNORE INTO sync_published (hub_id, first, last) VALUES (?, ?, ?)",
                .text(hubID), .integer(range.first), .integer(range.last))
        }
    }

    /// Forgets a segment that was about to be written but never reached the hub.
    public func forgetPublishing(_ range: PublishedRange, hubID: String) throws {
        try write(nil) { _ in
            try connection.run(
                "DELETE FROM sync_published WHERE hub_id = ? AND first = ? AND last = ?",
                .text(hubID), .integer(range.first), .integer(range.last))
        }
    }

    /// Moves the published position forward (never back).
    public func markPublished(through position: Int64, hubID: String) throws {
        try write(nil) { _ in
            try connection.run(
                "UPDATE sync_hub SET published_through = max(published_through, ?) WHERE hub_id = ?",
                .integer(position), .text(hubID))
        }
    }

    /// This device's own changes after `position`, drinks and custom drinks, in sequence order, at most
    /// `limit`: what publishing sends. `through` is how far they cover the sequence: the last one's when
    /// the page is full, else every sequence number written so far (other devices' changes need no
    /// publishing).
    public func ownChanges(after position: Int64, limit: Int) throws -> OwnChanges {
        // Read in one snapshot, or a change committed between two reads could be skipped over.
        try connection.run("BEGIN")
        defer { try? connection.run("COMMIT") }
        let written = try connection.queryInteger(Self.lastSequenceSQL) ?? 0
        let bounds: [SQLiteValue] = [.text(deviceID.rawValue), .integer(position), .integer(written), .integer(Int64(max(limit, 1)))]
        var drinks = try connection.query(
            "SELECT \(DrinkRows.columns) FROM drinks WHERE origin = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
            bounds, row: DrinkRows.revision)
        var kinds = try connection.query(
            "SELECT \(CustomDrinkRows.columns) FROM custom_drinks WHERE origin = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
            bounds, row: CustomDrinkRows.revision)
        var sequences = drinks.map(\.sequence) + kinds.map(\.sequence)
        guard sequences.count >= limit else { return OwnChanges(drinks: drinks, kinds: kinds, through: max(written, position)) }
        // A full page: keep the first `limit` of the two lists merged, and cover up to the last kept.
        sequences.sort()
        let through = sequences[limit - 1]
        drinks.removeAll { $0.sequence > through }
        kinds.removeAll { $0.sequence > through }
        return OwnChanges(drinks: drinks, kinds: kinds, through: through)
    }

    /// How many of this device's changes are not on the hub yet.
    public func unpublishedCount(hubID: String) throws -> Int {
        let published = try hub().map { $0.hubID == hubID ? $0.publishedThrough : 0 } ?? 0
        return Int(try connection.queryInteger(
            """
            SELECT (SELECT count(*) FROM drinks WHERE origin = ?1 AND seq > ?2)
                 + (SELECT count(*) FROM custom_drinks WHERE origin = ?1 AND seq > ?2)
            """, .text(deviceID.rawValue), .integer(published)) ?? 0)
    }

    /// The highest local sequence number written so far.
    public func lastSequence() throws -> Int64 {
        try connection.queryInteger(Self.lastSequenceSQL) ?? 0
    }

    /// The last sequence number given out, in either table that shares the sequence.
    static let lastSequenceSQL =
        "SELECT max(coalesce((SELECT max(seq) FROM drinks), 0), coalesce((SELECT max(seq) FROM custom_drinks), 0))"

    /// How far each remote device's log was applied here.
    public func anchors(hubID: String) throws -> [DeviceID: Int64] {
        var anchors: [DeviceID: Int64] = [:]
        for (device, position) in try connection.query(
            "SELECT device_id, position FROM sync_anchors WHERE hub_id = ?", [.text(hubID)],
            row: { (DeviceID(rawValue: $0.text(0)), $0.int64(1)) })
        {
            anchors[device] = position
        }
        return anchors
    }

    /// Merges records received from `device` and moves its anchor to `position`, in one transaction:
    /// a crash applies all of it or none, and nothing twice. Each record replaces the local state of
    /// its drink (or custom drink) only when its `(clock, origin)` is greater; equal keys are the same
    /// record.
    public func applyReceived(
        _ revisions: [DrinkRevision], kinds: [DrinkKindRevision] = [], from device: DeviceID, through position: Int64,
        hubID: String
    ) throws -> ApplyOutcome {
        try write(nil) { context in
            var outcome = ApplyOutcome()
            for revision in revisions {
                context.receive(revision.clock)
                if let current = try DrinkRows.find(revision.drink.id, in: connection),
                    (current.clock, current.origin) >= (revision.clock, revision.origin)
                {
                    outcome.unchanged += 1
                    continue
                }
                try context.writeReceived(revision)
                outcome.applied += 1
            }
            for kind in kinds {
                context.receive(kind.clock)
                if let current = try CustomDrinkRows.find(kind.name, in: connection),
                    (current.clock, current.origin) >= (kind.clock, kind.origin)
                {
                    outcome.unchanged += 1
                    continue
                }
                try context.writeReceived(kind: kind)
                outcome.applied += 1
            }
            try connection.run(
                """
                INSERT INTO sync_anchors (hub_id, device_id, position) VALUES (?, ?, ?)
                ON CONFLICT (hub_id, device_id) DO UPDATE SET position = max(position, excluded.position)
                """,
                .text(hubID), .text(device.rawValue), .integer(position))
            return outcome
        }
    }

    /// Records when a sync ran and what came of it, for `journal sync status`.
    public func recordSyncResult(_ result: String, at instant: Timestamp, hubID: String) throws {
        try write(nil) { _ in
            try connection.run(
                "UPDATE sync_hub SET last_sync_at = ?, last_sync_result = ? WHERE hub_id = ?",
                .integer(instant.milliseconds), .text(result), .text(hubID))
        }
    }
}

extension JournalStore {
    /// Gives this journal a new device id, for a database copied from another machine: its own
    /// changes are re-stamped with the new id and published again from the start under it, so none is
    /// lost and none is published under the other machine's id. Returns the new id; a store opened
    /// before this keeps the old one, so reopen.
    public func adoptNewDeviceIdentity() throws -> DeviceID {
        let new = DeviceID(rawValue: RandomIdentifier.uuid())
        try write(nil) { context in
            let own = try connection.query(
                "SELECT \(DrinkRows.columns) FROM drinks WHERE origin = ? ORDER BY seq", [.text(deviceID.rawValue)],
                row: DrinkRows.revision)
            for var revision in own {
                revision.origin = new
                try context.writeReceived(revision)
            }
            let ownKinds = try connection.query(
                "SELECT \(CustomDrinkRows.columns) FROM custom_drinks WHERE origin = ? ORDER BY seq", [.text(deviceID.rawValue)],
                row: CustomDrinkRows.revision)
            for var kind in ownKinds {
                kind.origin = new
                try context.writeReceived(kind: kind)
            }
            try connection.run("UPDATE meta SET value = ? WHERE key = 'device_id'", .text(new.rawValue))
            try JournalStore.recordFileIdentity(path: path, in: connection)
            try connection.run("UPDATE sync_hub SET published_through = 0")
            try connection.run("DELETE FROM sync_published")
        }
        return new
    }
}

extension JournalStore {
    /// The device id in the file now, which differs from `deviceID` once `journal sync new-device` ran
    /// in another process: a long-running owner must then reopen the journal.
    public func storedDeviceID() throws -> DeviceID {
        DeviceID(rawValue: try connection.queryText("SELECT value FROM meta WHERE key = 'device_id'") ?? "")
    }
}

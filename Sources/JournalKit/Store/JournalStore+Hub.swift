/// Sync's bookkeeping: the hub, what was published, how far each remote device was applied, and the
/// merge of received records. Kept here because the journal's SQL lives in JournalKit.
extension JournalStore {
    /// The hub this journal is joined to, if any.
    public func hub() throws -> HubRecord? {
        try connection.query(
            """
            SELECT hub_id, kind, location, published_through, last_sync_at, last_sync_result, last_notification_at,
                   last_sync_outcome, last_sync_failure, last_ok_sync_at
            FROM sync_hub
            """
        ) { row in
            let lastSync = row.optionalText(7).map { outcome in
                SyncOutcome(
                    failure: outcome == "ok" ? nil : FailureKind(name: row.optionalText(8) ?? "") ?? .failure,
                    message: row.optionalText(5) ?? "")
            }
            return HubRecord(
                hubID: HubID(rawValue: row.text(0)), kind: row.text(1), location: row.text(2), publishedThrough: row.int64(3),
                lastSyncAt: row.isNull(4) ? nil : Timestamp(milliseconds: row.int64(4)), lastSync: lastSync,
                lastNotificationAt: row.isNull(6) ? nil : Timestamp(milliseconds: row.int64(6)),
                lastSucceededAt: row.isNull(9) ? nil : Timestamp(milliseconds: row.int64(9)))
        }.first
    }

    /// Why this journal no longer syncs with its hub, the first time it is asked since a sync found it
    /// (then not again): what `journal add` says once after the drink it recorded. nil otherwise.
    public func syncStoppedNotice() throws -> String? {
        guard let reason = try connection.queryText("SELECT stopped_because FROM sync_hub WHERE stopped_because IS NOT NULL AND stopped_said = 0")
        else { return nil }
        try write(nil) { _ in try connection.run("UPDATE sync_hub SET stopped_said = 1") }
        return reason
    }

    /// How this journal's sync stands, and when a sync last succeeded.
    public func syncHealth() throws -> (health: SyncHealth, lastSucceededAt: Timestamp?) {
        guard let joined = try hub() else { return (.notJoined, nil) }
        guard let last = joined.lastSync else { return (.waiting, nil) }
        guard last.succeeded else { return (.failing, joined.lastSucceededAt) }
        return (try hasUnpublished(after: joined.publishedThrough) ? .waiting : .ok, joined.lastSucceededAt)
    }

    /// Joins this journal to a hub. Joining the same hub again keeps what was published and applied;
    /// another hub elsewhere starts afresh (its anchors are its own), and the journal moves there
    /// whole: everything it holds, other devices' records too, is published there (`relay_through`).
    /// Another hub in the same folder
    /// (a sync tool kept another machine's hub.json there: a split hub) holds the same logs, so what
    /// was published and applied carries over, each segment to be checked again under the new key.
    /// `admission` is the invitation it joined with, when it joined with one, and `invitationTag` what
    /// tells who printed it (joining again without one keeps the one it had). `beforeCommit` runs last in the transaction (to write what must
    /// exist exactly when the join does); when it throws, nothing is joined.
    public func joinHub(
        id: HubID, kind: String, location: String, admission: DeviceCard.Admission? = nil, invitationTag: [UInt8]? = nil,
        beforeCommit: @Sendable () throws -> Void = {}
    ) throws {
        try write(nil) { _ in
            let current = try hub()
            if current?.hubID == id {
                // Joined again (with a member's key, after a revocation): it syncs again.
                try connection.run(
                    "UPDATE sync_hub SET kind = ?, location = ?, stopped_because = NULL, stopped_said = 0", .text(kind), .text(location))
            } else {
                let relayedBefore = try connection.queryInteger("SELECT relay_through FROM sync_hub") ?? 0
                try connection.run("DELETE FROM sync_hub")
                try connection.run(
                    "INSERT INTO sync_hub (singleton, hub_id, kind, location, relay_through) VALUES (1, ?, ?, ?, ?)",
                    .text(id.rawValue), .text(kind), .text(location), .integer(try connection.queryInteger(RecordKinds.lastSequenceSQL) ?? 0))
                if let current, current.location == location {
                    let ids: [SQLiteValue] = [.text(id.rawValue), .text(current.hubID.rawValue)]
                    try connection.run(
                        "UPDATE sync_hub SET published_through = ?, relay_through = ?", .integer(current.publishedThrough), .integer(relayedBefore))
                    try connection.cached("UPDATE sync_published SET hub_id = ?, fingerprint = NULL WHERE hub_id = ?").run(ids)
                    try connection.cached("UPDATE sync_anchors SET hub_id = ? WHERE hub_id = ?").run(ids)
                    try connection.cached("UPDATE sync_waiting SET hub_id = ? WHERE hub_id = ?").run(ids)
                }
            }
            if let admission, let invitationTag {
                try connection.run("UPDATE sync_hub SET admission = ?, invitation_tag = ?", .text(CardColumns.text(of: admission)), .blob(invitationTag))
            }
            try beforeCommit()
        }
    }

    /// Segments this journal wrote, or was about to write, to the hub, each with its fingerprint as
    /// written (nil until known).
    public func publishedSegments(hubID: HubID) throws -> [PublishedSegment] {
        try connection.query(
            "SELECT first, last, fingerprint FROM sync_published WHERE hub_id = ? ORDER BY first, last", [.text(hubID.rawValue)]
        ) { PublishedSegment(range: PublishedRange(first: $0.int64(0), last: $0.int64(1)), fingerprint: $0.optionalText(2)) }
    }

    /// Notes that this journal waits for positions `first` through `last` of `device`'s log, and
    /// returns since when it has waited for that device.
    public func noteWaiting(for device: DeviceID, first: Int64, last: Int64, at instant: Timestamp, hubID: HubID) throws -> Timestamp {
        try write(nil) { _ in
            try connection.run(
                """
                INSERT INTO sync_waiting (hub_id, device_id, first, last, since) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (hub_id, device_id) DO UPDATE SET first = excluded.first, last = excluded.last
                """,
                .text(hubID.rawValue), .text(device.rawValue), .integer(first), .integer(last), .integer(instant.milliseconds))
            let since = try connection.queryInteger(
                "SELECT since FROM sync_waiting WHERE hub_id = ? AND device_id = ?", .text(hubID.rawValue), .text(device.rawValue))
            return Timestamp(milliseconds: since ?? instant.milliseconds)
        }
    }

    /// Notes that this journal no longer waits for anything of `device`.
    public func clearWaiting(for device: DeviceID, hubID: HubID) throws {
        guard try connection.queryInteger(
            "SELECT count(*) FROM sync_waiting WHERE hub_id = ? AND device_id = ?", .text(hubID.rawValue), .text(device.rawValue)) ?? 0 > 0
        else { return }
        try write(nil) { _ in
            try connection.run("DELETE FROM sync_waiting WHERE hub_id = ? AND device_id = ?", .text(hubID.rawValue), .text(device.rawValue))
        }
    }

    /// What this journal waits for, device by device.
    public func waiting(hubID: HubID) throws -> [WaitingPositions] {
        try connection.query(
            "SELECT device_id, first, last, since FROM sync_waiting WHERE hub_id = ? ORDER BY device_id", [.text(hubID.rawValue)]
        ) {
            WaitingPositions(
                device: DeviceID(rawValue: $0.text(0)), first: $0.int64(1), last: $0.int64(2),
                since: Timestamp(milliseconds: $0.int64(3)))
        }
    }

    /// How far each device's log was found to be no member's.
    public func refusedLogs(hubID: HubID) throws -> [DeviceID: Int64] {
        var refused: [DeviceID: Int64] = [:]
        for (device, through) in try connection.query(
            "SELECT device_id, through FROM sync_refused_logs WHERE hub_id = ?", [.text(hubID.rawValue)],
            row: { (DeviceID(rawValue: $0.text(0)), $0.int64(1)) })
        {
            refused[device] = through
        }
        return refused
    }

    /// How far each remote device's log was applied here.
    public func anchors(hubID: HubID) throws -> [DeviceID: Int64] {
        var anchors: [DeviceID: Int64] = [:]
        for (device, position) in try connection.query(
            "SELECT device_id, position FROM sync_anchors WHERE hub_id = ?", [.text(hubID.rawValue)],
            row: { (DeviceID(rawValue: $0.text(0)), $0.int64(1)) })
        {
            anchors[device] = position
        }
        return anchors
    }

    /// The devices whose last segment applied here that held records of their own had one stamped
    /// further ahead of this machine's clock than a clock may run: by how much, and when it was applied.
    public func clocksAhead(hubID: HubID) throws -> [DeviceID: ClockAhead] {
        var ahead: [DeviceID: ClockAhead] = [:]
        for (device, clock) in try connection.query(
            "SELECT device_id, clock_ahead_ms, clock_ahead_at FROM sync_anchors WHERE hub_id = ? AND clock_ahead_ms IS NOT NULL",
            [.text(hubID.rawValue)],
            row: { (DeviceID(rawValue: $0.text(0)), ClockAhead(by: .milliseconds($0.int64(1)), seenAt: Timestamp(milliseconds: $0.int64(2)))) })
        {
            ahead[device] = clock
        }
        return ahead
    }

    /// Records when a sync attempt ran and what came of it, for `journal sync status`, and when the
    /// hub last rang (kept when it did not ring since).
    public func recordSyncOutcome(_ outcome: SyncOutcome, at instant: Timestamp, hubID: HubID, notifiedAt: Timestamp? = nil) throws {
        // Every sync ends here, a daemon's for every ring of the doorbell: not waiting for the disk
        // saves an fdatasync each time, and a power failure could only lose the last outcome.
        try connection.withoutWaitingForTheDisk {
            try write(nil) { _ in
                try connection.run(
                    """
                    UPDATE sync_hub SET last_sync_at = ?1, last_sync_outcome = ?2, last_sync_failure = ?3, last_sync_exit_status = ?4,
                        last_sync_result = ?5, last_notification_at = coalesce(?6, last_notification_at),
                        last_ok_sync_at = CASE WHEN ?2 = 'ok' THEN ?1 ELSE last_ok_sync_at END,
                        stopped_said = CASE WHEN ?8 IS NULL OR ?8 IS NOT stopped_because THEN 0 ELSE stopped_said END,
                        stopped_because = CASE WHEN ?2 = 'ok' THEN NULL ELSE coalesce(?8, stopped_because) END
                    WHERE hub_id = ?7
                    """,
                    .integer(instant.milliseconds), .text(outcome.succeeded ? "ok" : "failed"), outcome.failure.map { .text($0.name) } ?? .null,
                    .integer(Int64(outcome.exitStatus)), .text(outcome.message), notifiedAt.map { .integer($0.milliseconds) } ?? .null,
                    .text(hubID.rawValue), outcome.stoppedBecause.map { .text($0) } ?? .null)
            }
        }
    }
}

extension JournalStore {
    /// The most set-aside files kept for `journal sync status`; older ones are forgotten.
    static let setAsideKept = 100_000

    /// Remembers files a sync set aside from this device's log, for `journal sync status`.
    public func recordSetAside(_ files: [SetAsideFile], hubID: HubID) throws {
        guard !files.isEmpty else { return }
        try write(nil) { _ in try insertSetAside(files, hubID: hubID) }
    }

    /// Inserts `files` into what syncs set aside, in the caller's transaction.
    func insertSetAside(_ files: [SetAsideFile], hubID: HubID) throws {
        let insert = try connection.cached(
            "INSERT INTO sync_set_aside (hub_id, device_id, name, reason, outcome, at) VALUES (?, ?, ?, ?, ?, ?)")
        for file in files {
            try insert.run([
                .text(hubID.rawValue), .text(file.device.rawValue), .text(file.name), .text(file.reason), .text(file.outcome.rawValue),
                .integer(file.at.milliseconds),
            ])
        }
        try connection.run(
            "DELETE FROM sync_set_aside WHERE rowid <= (SELECT max(rowid) FROM sync_set_aside) - ?", .integer(Int64(Self.setAsideKept)))
    }

    /// The files syncs with the hub `hubID` set aside or passed over, newest first.
    public func setAsideFiles(hubID: HubID) throws -> [SetAsideFile] {
        try connection.query(
            "SELECT device_id, name, reason, outcome, at FROM sync_set_aside WHERE hub_id = ? ORDER BY rowid DESC", [.text(hubID.rawValue)]
        ) {
            SetAsideFile(
                device: DeviceID(rawValue: $0.text(0)), name: $0.text(1), reason: $0.text(2),
                outcome: SetAsideFile.Outcome(rawValue: $0.text(3)) ?? .passedOver,
                at: Timestamp(milliseconds: $0.int64(4)))
        }
    }
}

extension JournalStore {
    /// The device id in the file now, which differs from `deviceID` once `journal sync new-device` ran
    /// in another process: a long-running owner must then reopen the journal.
    public func storedDeviceID() throws -> DeviceID {
        DeviceID(rawValue: try connection.queryText("SELECT value FROM meta WHERE key = 'device_id'") ?? "")
    }
}

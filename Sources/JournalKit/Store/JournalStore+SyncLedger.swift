/// The sync's ledger: read in one snapshot, and written so that the copy a sync holds stays what the
/// file says. Each write here is one transaction.
extension JournalStore {
    /// The ledger of the hub `hubID`, in one snapshot; nil when this journal is not joined to it.
    public func syncLedger(hubID: HubID) throws -> SyncLedger? {
        try connection.readTransaction { try ledger(hubID: hubID) }
    }

    /// The ledger, and what a sync checks of the journal before it starts, in one read (each apart
    /// was a transaction of its own): the device id the file holds now, whether it is still the file
    /// its identity was recorded for, and the ledger of `hubID`. A schema newer than this program's,
    /// which a newer `journal` migrated the file to since this store opened it, throws
    /// (`checkSchemaIsKnown`).
    public func syncStart(hubID: HubID) throws -> SyncStart {
        try connection.readTransaction {
            let stored = try storedDeviceID()
            try checkSchemaIsKnown()
            return SyncStart(storedDeviceID: stored, fileStanding: try recordedFileStanding(), ledger: try ledger(hubID: hubID))
        }
    }

    private func ledger(hubID: HubID) throws -> SyncLedger? {
        guard let (publishedThrough, relayThrough) = try connection.query(
            "SELECT published_through, relay_through FROM sync_hub WHERE hub_id = ?", [.text(hubID.rawValue)], row: { ($0.int64(0), $0.int64(1)) }
        ).first
        else { return nil }
        return SyncLedger(
            hubID: hubID, publishedThrough: publishedThrough, relayThrough: relayThrough, published: try publishedSegments(hubID: hubID),
            anchors: try anchors(hubID: hubID), refusedLogs: try refusedLogs(hubID: hubID), setAside: try setAsideFiles(hubID: hubID))
    }

    /// What moving to the hub `hubID` published of other devices' records; nil when it published none.
    public func movedHere(hubID: HubID) throws -> MovedHere? {
        try connection.query(
            "SELECT moved_changes, moved_devices, moved_at FROM sync_hub WHERE hub_id = ? AND moved_changes > 0 AND moved_at IS NOT NULL",
            [.text(hubID.rawValue)], row: { MovedHere(changes: Int($0.int64(0)), devices: Int($0.int64(1)), at: Timestamp(milliseconds: $0.int64(2))) }
        ).first
    }

    /// Counts what moving to this hub published of other devices' records (`moved` changes of
    /// `devices` devices), for `journal sync status`.
    public func recordMoved(changes: Int, devices: Int, at instant: Timestamp, in ledger: SyncLedger) throws {
        try write(nil) { _ in
            try connection.run(
                "UPDATE sync_hub SET moved_changes = moved_changes + ?, moved_devices = max(moved_devices, ?), moved_at = ? WHERE hub_id = ?",
                .integer(Int64(changes)), .integer(Int64(devices)), .integer(instant.milliseconds), .text(ledger.hubID.rawValue))
        }
    }

    /// Moves the published position forward (never back).
    public func markPublished(through position: Int64, in ledger: inout SyncLedger) throws {
        try write(nil) { _ in try updatePublished(through: position, hubID: ledger.hubID) }
        ledger.markPublished(through: position)
    }

    /// Remembers that a segment is about to be written, before it is: a crash after the write then
    /// still knows the segment as this journal's own.
    public func recordPublishing(_ range: PublishedRange, in ledger: inout SyncLedger) throws {
        try write(nil) { _ in
            try connection.run(
                "INSERT OR IGNORE INTO sync_published (hub_id, first, last) VALUES (?, ?, ?)",
                .text(ledger.hubID.rawValue), .integer(range.first), .integer(range.last))
        }
        ledger.recordPublishing(range)
    }

    /// Forgets a segment that was about to be written but never reached the hub, or was removed from it.
    public func forgetPublishing(_ range: PublishedRange, in ledger: inout SyncLedger) throws {
        try write(nil) { _ in
            try connection.run(
                "DELETE FROM sync_published WHERE hub_id = ? AND first = ? AND last = ?",
                .text(ledger.hubID.rawValue), .integer(range.first), .integer(range.last))
        }
        ledger.forgetPublishing(range)
    }

    /// Remembers what a segment this journal wrote looks like on the hub, to notice when it changes,
    /// and, when `publishing`, moves the published position through it: one transaction after the write.
    public func recordWritten(_ fingerprint: String, of range: PublishedRange, publishing: Bool, in ledger: inout SyncLedger) throws {
        try write(nil) { _ in
            try connection.run(
                "UPDATE sync_published SET fingerprint = ? WHERE hub_id = ? AND first = ? AND last = ?",
                .text(fingerprint), .text(ledger.hubID.rawValue), .integer(range.first), .integer(range.last))
            if publishing { try updatePublished(through: range.last, hubID: ledger.hubID) }
        }
        ledger.recordFingerprint(fingerprint, of: range)
        if publishing { ledger.markPublished(through: range.last) }
    }

    /// Merges records received from `device` and moves its anchor to `position`, in one transaction.
    public func applyReceived(_ records: [AnyReplicated], from device: DeviceID, through position: Int64, in ledger: inout SyncLedger)
        throws -> ApplyOutcome
    {
        let outcome = try applyReceived(records, from: device, through: position, hubID: ledger.hubID)
        ledger.applied(device, through: position)
        return outcome
    }

    /// Remembers that `device`'s log on the hub is no member's, through position `through`.
    public func refuseLog(of device: DeviceID, through: Int64, in ledger: inout SyncLedger) throws {
        try write(nil) { _ in
            try connection.run(
                """
                INSERT INTO sync_refused_logs (hub_id, device_id, through) VALUES (?, ?, ?)
                ON CONFLICT (hub_id, device_id) DO UPDATE SET through = max(through, excluded.through)
                """,
                .text(ledger.hubID.rawValue), .text(device.rawValue), .integer(through))
        }
        ledger.refuseLog(of: device, through: through)
    }

    /// Moves the published position forward (never back), inside the caller's transaction.
    private func updatePublished(through position: Int64, hubID: HubID) throws {
        try connection.run(
            "UPDATE sync_hub SET published_through = max(published_through, ?) WHERE hub_id = ?", .integer(position), .text(hubID.rawValue))
    }
}

/// What `JournalStore.syncStart` read.
public struct SyncStart: Sendable {
    /// The device id the file holds now.
    public let storedDeviceID: DeviceID
    /// How the file stands against the identity recorded for it; nil when none was recorded yet (a
    /// journal from before identities: `fileStanding` records one).
    public let fileStanding: FileStanding?
    /// The ledger of the hub; nil when the journal is not joined to it.
    public let ledger: SyncLedger?
}

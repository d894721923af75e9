/// A journal put back from a backup in its own place (`FileStanding.restoredInPlace`) syncs as a device
/// that was offline: what its device published since the backup is on the hub, in its own log, signed
/// with its key, and it takes that back instead of publishing over it.
extension JournalStore {
    /// Of `records`, those this journal does not hold at their version or a newer one: what a segment
    /// signed by this device tells that this journal lacks.
    public func notHeld(_ records: [AnyReplicated]) throws -> [AnyReplicated] {
        try connection.readTransaction { try records.filter { try !$0.isHeld(in: connection) } }
    }

    /// Takes back a segment of this device's own log that this journal lost: its `records` are merged,
    /// the positions up to the segment's end (`range`) are left to the hub (the next writes are numbered
    /// after them, and this journal's changes not yet published are numbered again after those), and
    /// the segment is kept as written (`fingerprint`) and published through its end. The records taken
    /// back are this journal's at positions past it, and published again there: a record lives at the
    /// position of its last write, which the segment covering it holds, so a compaction that replaces
    /// the segment loses none of them. One transaction. Returns how many records changed the journal.
    public func takeBack(_ records: [AnyReplicated], range: PublishedRange, fingerprint: String, in ledger: inout SyncLedger) throws -> Int {
        let published = ledger.publishedThrough
        let (applied, through) = try write(nil) { context -> (Int, Int64) in
            try context.raiseSequence(to: range.last)
            var applied = 0
            for record in records where try record.merge(in: &context).applied { applied += 1 }
            // This journal's changes at positions the hub holds others at go up after them.
            var stranded: [AnyReplicated] = []
            for kind in RecordKinds.stored {
                stranded += try logRecords(kind, of: deviceID, after: published, through: range.last, limit: .max)
            }
            for record in stranded.sorted(by: { $0.sequence < $1.sequence }) { try record.store(in: &context) }
            try connection.run(
                "INSERT INTO sync_published (hub_id, first, last, fingerprint) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET fingerprint = excluded.fingerprint",
                .text(ledger.hubID.rawValue), .integer(range.first), .integer(range.last), .text(fingerprint))
            try connection.run(
                "UPDATE sync_hub SET published_through = max(published_through, ?) WHERE hub_id = ?", .integer(range.last), .text(ledger.hubID.rawValue))
            return (applied, range.last)
        }
        ledger.recordPublishing(range)
        ledger.recordFingerprint(fingerprint, of: range)
        ledger.markPublished(through: through)
        return applied
    }
}

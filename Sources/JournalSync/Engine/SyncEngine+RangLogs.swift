import JournalKit

extension SyncEngine {
    /// A sync of `devices`' logs alone, past what this journal applied of them, on what the last whole
    /// sync learnt of cards, key epochs and membership: what a ring that named those logs needs, at the
    /// cost of listing them and reading what is new. A name that rang for nothing (a forged or stale
    /// ring) costs the listing.
    ///
    /// Nil when it cannot settle what it found: a segment that does not open, waits for its card or
    /// for a segment on its way, or a log newly passed over. The caller then goes on with a whole sync,
    /// which reads cards and key epochs first; `report` carries what was applied and said meanwhile.
    /// (An engine that made no whole sync yet does not read logs alone: `SyncPlan`.)
    func syncLogs(
        _ devices: Set<DeviceID>, ledger: inout SyncLedger, leftInPlace: Set<HubEntry>, into report: inout SyncReport, progress: SyncProgress
    ) async throws -> SyncReport? {
        guard !devices.isEmpty else { return report }
        try await hub.refresh(after: ledger.positionsKnown(own: store.deviceID), only: devices)
        // A log without a card holds unsigned segments, which only the key epochs can judge (how far a
        // record vouches for them), and only a whole sync reads those fresh: on what the last one learnt,
        // a device that had not yet read a revocation took a revoked machine's unsigned segment under a
        // made-up id, when the records revoking it were already on the hub (KeyEpochPropertyTests).
        for device in devices where try await card(of: device) == nil {
            guard let log = try? await hub.log(of: device), (log.highest ?? 0) <= ledger.readFrom(device) else { return nil }
        }
        var read = report
        try await pull(only: devices, ledger: &ledger, leftInPlace: leftInPlace, into: &read, progress: progress)
        guard read.failures.isEmpty, read.waiting.isEmpty, read.setAside.isEmpty else {
            // What was applied stays applied, and what was said stays said: some of it the whole sync
            // will not find again (a log refused, a segment skipped, moved past in the ledger), and
            // what it finds again it does not say twice. Failures and waits it finds again.
            report.received = read.received
            report.setAside = read.setAside
            report.unchanged = read.unchanged
            report.devicesHeardFrom = read.devicesHeardFrom
            report.refused = read.refused
            report.skipped = read.skipped
            return nil
        }
        return read
    }
}

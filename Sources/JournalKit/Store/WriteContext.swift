/// What one write transaction needs: the hybrid logical clock and the change sequence, both read
/// under the write lock (another process may have written since this one last looked), and the undo
/// group its changes belong to.
struct WriteContext {
    let connection: SQLiteConnection
    let device: DeviceID
    let now: Timestamp
    private var hybridClock: HybridLogicalClock
    private let startingClock: HybridLogicalClock
    private var lastSequence: Int64
    private let undoAction: UndoAction?
    private let undoGroup: Int64

    /// Undo remembers at least this many commands; older ones fall off.
    static let undoDepth: Int64 = 100
    /// The undo log is trimmed at every this many commands, not at each: a trim touches the log's
    /// oldest pages as well as its newest, three more pages (WAL frames) for a write of a dozen.
    static let undoTrimEvery: Int64 = 50

    init(connection: SQLiteConnection, device: DeviceID, now: Timestamp, action: UndoAction?) throws {
        self.connection = connection
        self.device = device
        self.now = now
        let last = try connection.queryInteger("SELECT value FROM meta WHERE key = 'hlc'") ?? 0
        hybridClock = HybridLogicalClock(last: HybridTimestamp(rawValue: last))
        startingClock = hybridClock
        lastSequence = try connection.queryInteger(RecordKinds.lastSequenceSQL) ?? 0
        undoAction = action
        undoGroup = action == nil ? 0 : (try connection.queryInteger("SELECT max(change_id) FROM undo_log") ?? 0) + 1
    }

    /// Takes in a clock reading received from another device.
    mutating func receive(_ remote: HybridTimestamp) {
        hybridClock.receive(remote, now: now)
    }

    /// Writes a change made here: checked against the rules (a deletion needs none: it must also remove
    /// what an older journal let in), a new clock reading, the next sequence number, and this device as
    /// its origin. The reading orders after the state it replaces, or the
    /// change would lose to it when merged; that can exceed the clock's drift bound only for a record
    /// received with a reading from the future, and then only for that record.
    mutating func writeLocal<Payload: StoredPayload>(
        _ payload: Payload, deleted: Bool, replacing before: Replicated<Payload>?
    ) throws -> Replicated<Payload> {
        if !deleted { try payload.validate() }
        var reading = hybridClock.tick(now: now)
        if let before, before.clock >= reading { reading = before.clock.successor }
        var record = Replicated(payload: payload, isDeleted: deleted, clock: reading, origin: device, sequence: 0)
        try store(&record)
        return record
    }

    /// A change made here, with what `journal undo` needs to take it back.
    mutating func writeUndoably<Payload: UndoablePayload>(
        _ payload: Payload, deleted: Bool, replacing before: Replicated<Payload>?
    ) throws -> Replicated<Payload> {
        let written = try writeLocal(payload, deleted: deleted, replacing: before)
        if let undoAction {
            try UndoLog.insert(
                group: undoGroup, action: undoAction.rawValue, key: written.payload.key, before: before, afterClock: written.clock,
                undone: false, in: connection)
        }
        return written
    }

    /// The sequence number the last record written here was given.
    var lastSequenceWritten: Int64 { lastSequence }

    /// Gives the next writes sequence numbers past `position`, now and in every later transaction:
    /// positions up to it are taken on the hub by what this device published before its journal
    /// was restored from a backup.
    mutating func raiseSequence(to position: Int64) throws {
        guard position > lastSequence else { return }
        lastSequence = position
        try connection.run(
            "INSERT INTO meta (key, value) VALUES ('sequence_floor', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            .integer(position))
    }

    /// Writes `record` as it is (received from another device, or re-stamped) with the next sequence number.
    mutating func store<Payload: StoredPayload>(_ record: Replicated<Payload>) throws {
        var stored = record
        try store(&stored)
    }

    private mutating func store<Payload: StoredPayload>(_ record: inout Replicated<Payload>) throws {
        lastSequence += 1
        record.sequence = lastSequence
        try Payload.table.write(record, in: connection)
    }

    /// Persists the clock and trims the undo log; runs before the transaction commits. A reading the
    /// clock left behind (it had run ahead of real time) is remembered with when, for `journal sync
    /// status` and the next sync to say (`ClockLeftBehind`).
    func finish() throws {
        if hybridClock != startingClock {
            try connection.run(
                "INSERT INTO meta (key, value) VALUES ('hlc', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                .integer(hybridClock.last.rawValue))
        }
        if let leftBehind = hybridClock.leftBehind {
            try ClockLeftBehind(reading: leftBehind, at: now).record(in: connection)
        }
        if undoAction != nil, undoGroup > Self.undoDepth, undoGroup % Self.undoTrimEvery == 0 {
            try connection.run("DELETE FROM undo_log WHERE change_id <= ?", .integer(undoGroup - Self.undoDepth))
        }
    }
}

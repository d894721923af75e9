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

    /// Remembers what a drink was before a change, so `journal undo` can put it back.
    func recordUndo(of written: Replicated<Drink>, before: Replicated<Drink>?) throws {
        guard let undoAction else { return }
        try connection.run(
            """
            INSERT INTO undo_log (change_id, action, drink_id, before_kind, before_caffeine_mg,
                before_consumed_at, before_note, before_deleted, after_hlc)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            .integer(undoGroup), .text(undoAction.rawValue), .text(written.payload.id.rawValue),
            before.map { .text($0.payload.kind) } ?? .null,
            before.map { .real($0.payload.caffeineMg) } ?? .null,
            before.map { .integer($0.payload.consumedAt.milliseconds) } ?? .null,
            .text(orNull: before?.payload.note),
            before.map { .integer($0.isDeleted ? 1 : 0) } ?? .null,
            .integer(written.clock.rawValue))
    }

    /// Persists the clock and trims the undo log; runs before the transaction commits.
    func finish() throws {
        if hybridClock != startingClock {
            try connection.run(
                "INSERT INTO meta (key, value) VALUES ('hlc', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                .integer(hybridClock.last.rawValue))
        }
        if undoAction != nil, undoGroup > Self.undoDepth, undoGroup % Self.undoTrimEvery == 0 {
            try connection.run("DELETE FROM undo_log WHERE change_id <= ?", .integer(undoGroup - Self.undoDepth))
        }
    }
}

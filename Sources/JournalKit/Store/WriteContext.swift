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

    /// Undo remembers this many commands; older ones fall off.
    static let undoDepth: Int64 = 100

    init(connection: SQLiteConnection, device: DeviceID, now: Timestamp, action: UndoAction?) throws {
        self.connection = connection
        self.device = device
        self.now = now
        let last = try connection.queryInteger("SELECT value FROM meta WHERE key = 'hlc'") ?? 0
        hybridClock = HybridLogicalClock(last: HybridTimestamp(rawValue: last))
        startingClock = hybridClock
        lastSequence = try connection.queryInteger(JournalStore.lastSequenceSQL) ?? 0
        undoAction = action
        undoGroup = action == nil ? 0 : (try connection.queryInteger("SELECT max(change_id) FROM undo_log") ?? 0) + 1
    }

    /// The clock reading for a local write. It must order after the row's current reading, or the
    /// write would lose to the state it replaces when merged; that can exceed the clock's drift bound
    /// only for a row received with a reading from the future, and then only for that row.
    mutating func tick(replacing existing: DrinkRevision?) -> HybridTimestamp {
        let reading = hybridClock.tick(now: now)
        guard let existing, existing.clock >= reading else { return reading }
        return existing.clock.successor
    }

    /// Takes in a clock reading received from another device.
    mutating func receive(_ remote: HybridTimestamp) {
        hybridClock.receive(remote, now: now)
    }

    mutating func nextSequence() -> Int64 {
        lastSequence += 1
        return lastSequence
    }

    /// Writes a local change to `drink`: a new clock reading and sequence number, this device as origin,
    /// and an undo entry holding `before`.
    mutating func writeLocal(_ drink: Drink, deleted: Bool, before: DrinkRevision?) throws -> DrinkRevision {
        let revision = DrinkRevision(
            drink: drink, isDeleted: deleted, clock: tick(replacing: before), origin: device,
            sequence: nextSequence())
        try connection.cached(DrinkRows.upsert).run(DrinkRows.values(revision))
        if let undoAction {
            try connection.run(
                """
                INSERT INTO undo_log (change_id, action, drink_id, before_kind, before_caffeine_mg,
                    before_consumed_at, before_note, before_deleted, after_hlc)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                .integer(undoGroup), .text(undoAction.rawValue), .text(drink.id.rawValue),
                before.map { .text($0.drink.kind) } ?? .null,
                before.map { .real($0.drink.caffeineMg) } ?? .null,
                before.map { .integer($0.drink.consumedAt.milliseconds) } ?? .null,
                .text(orNull: before?.drink.note),
                before.map { .integer($0.isDeleted ? 1 : 0) } ?? .null,
                .integer(revision.clock.rawValue))
        }
        return revision
    }

    /// Writes a local change to a custom drink.
    mutating func writeLocal(kind name: String, caffeineMg: Double, deleted: Bool, before: DrinkKindRevision?) throws -> DrinkKindRevision {
        var reading = hybridClock.tick(now: now)
        if let before, before.clock >= reading { reading = before.clock.successor }
        let revision = DrinkKindRevision(
            name: name, caffeineMg: caffeineMg, isDeleted: deleted, clock: reading, origin: device, sequence: nextSequence())
        try connection.cached(CustomDrinkRows.upsert).run(CustomDrinkRows.values(revision))
        return revision
    }

    /// Stores a custom drink's revision as it is (received, or re-stamped), with the next sequence number.
    mutating func writeReceived(kind revision: DrinkKindRevision) throws {
        var stored = revision
        stored.sequence = nextSequence()
        try connection.cached(CustomDrinkRows.upsert).run(CustomDrinkRows.values(stored))
    }

    /// Stores a revision as it is (one received from another device), with the next sequence number.
    mutating func writeReceived(_ revision: DrinkRevision) throws {
        var stored = revision
        stored.sequence = nextSequence()
        try connection.cached(DrinkRows.upsert).run(DrinkRows.values(stored))
    }

    /// Persists the clock and trims the undo log; runs before the transaction commits.
    func finish() throws {
        if hybridClock != startingClock {
            try connection.run(
                "INSERT INTO meta (key, value) VALUES ('hlc', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                .integer(hybridClock.last.rawValue))
        }
        if undoAction != nil, undoGroup > Self.undoDepth {
            try connection.run("DELETE FROM undo_log WHERE change_id <= ?", .integer(undoGroup - Self.undoDepth))
        }
    }
}

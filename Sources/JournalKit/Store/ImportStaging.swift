/// The drinks of an export too large to hold, waiting to be imported: written in batches to a private
/// temporary SQLite database (on disk, removed when it is closed) as they are read, so that an export
/// of millions of samples takes no more memory than one of ten. The journal itself is touched only
/// when all of it was read (`JournalStore.importStaged`): holding its write lock for the whole read
/// would make a `journal add` meanwhile give up after its busy timeout.
///
/// Drinks are appended in the order read; ids read twice are found once all are in (`finish`), by an
/// index built then: an index kept as they come, on random ids, cost more than the reading.
///
/// Not `Sendable`: one importer fills it, then hands it over to the store.
public final class ImportStaging {
    let connection: SQLiteConnection
    /// Drinks staged; once `finish` ran, without those left out for an id read before.
    public private(set) var count = 0
    /// Drinks read again with the same id and values: the same sample twice in one export. Known
    /// once `finish` ran.
    public private(set) var repeats = 0
    /// Drinks written since the last batch was committed.
    private var pending = 0
    private var finished = false

    /// Drinks written per transaction of the staging database.
    static let batchSize = 10_000

    /// A drink whose id was read before with other values: the first stays, this one is left out.
    public struct Conflict: Sendable, Equatable {
        /// Where this one and the first were read.
        public let line: Int
        public let firstLine: Int
        /// What the export calls the sample, as staged with it (a sync identifier, say).
        public let label: String?
    }

    public init() throws {
        // "" is SQLite's private temporary database: a file nobody else can open, deleted on close,
        // whose pages stay in memory only up to the cache size.
        connection = try SQLiteConnection(path: "", busyTimeoutMilliseconds: 0)
        try connection.executeScript(
            """
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            PRAGMA cache_size = -8192;
            CREATE TABLE staged_drinks (id TEXT NOT NULL, kind TEXT NOT NULL, caffeine_mg REAL NOT NULL,
                consumed_at INTEGER NOT NULL, note TEXT, line INTEGER NOT NULL, label TEXT);
            CREATE TABLE staged_custom_drinks (name TEXT PRIMARY KEY, caffeine_mg REAL NOT NULL) WITHOUT ROWID;
            CREATE TABLE left_out (row INTEGER NOT NULL);
            """)
    }

    /// Stages `drink`, read at `line` of the export and called `label` there, and `custom`, the drink
    /// of the person's own it is one of (the first amount staged for a name is the one it gets).
    public func stage(_ drink: Drink, line: Int, label: String? = nil, defining custom: CustomDrink? = nil) throws {
        if pending == Self.batchSize { try commit() }
        if pending == 0 { try connection.run("BEGIN") }
        pending += 1
        count += 1
        try connection.run(
            "INSERT INTO staged_drinks (id, kind, caffeine_mg, consumed_at, note, line, label) VALUES (?, ?, ?, ?, ?, ?, ?)",
            .text(drink.id.rawValue), .text(drink.kind), .real(drink.caffeineMg), .integer(drink.consumedAt.milliseconds),
            .text(orNull: drink.note), .integer(Int64(line)), .text(orNull: label))
        if let custom {
            try connection.run(
                "INSERT INTO staged_custom_drinks (name, caffeine_mg) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                .text(custom.name), .real(custom.caffeineMg))
        }
    }

    /// Ends the staging: of the drinks staged more than once by id, the first read stays; a later one
    /// with the same values is a repeat (imported once), one with other values a conflict, left out
    /// and told to `conflict`, in no particular order.
    public func finish(_ conflict: (Conflict) throws -> Void) throws {
        guard !finished else { return }
        finished = true
        try commit()
        try connection.executeScript("CREATE INDEX staged_drinks_by_id ON staged_drinks (id)")
        let twice = try connection.prepare(
            """
            SELECT rowid, id, kind, caffeine_mg, consumed_at, note, line, label FROM staged_drinks
            WHERE id IN (SELECT id FROM staged_drinks GROUP BY id HAVING count(*) > 1) ORDER BY id, rowid
            """)
        var first: (drink: Drink, line: Int)?
        try connection.run("BEGIN")
        while try twice.step() {
            let drink = Drink(
                id: DrinkID(rawValue: twice.text(1)), kind: twice.text(2), caffeineMg: twice.double(3),
                consumedAt: Timestamp(milliseconds: twice.int64(4)), note: twice.optionalText(5))
            let line = Int(twice.int64(6))
            guard let kept = first, kept.drink.id == drink.id else {
                first = (drink, line)
                continue
            }
            try connection.run("INSERT INTO left_out (row) VALUES (?)", .integer(twice.int64(0)))
            count -= 1
            if kept.drink == drink {
                repeats += 1
            } else {
                try conflict(Conflict(line: line, firstLine: kept.line, label: twice.optionalText(7)))
            }
        }
        try connection.run("DELETE FROM staged_drinks WHERE rowid IN (SELECT row FROM left_out)")
        try connection.run("COMMIT")
    }

    /// Commits the batch in progress.
    private func commit() throws {
        guard pending > 0 else { return }
        pending = 0
        try connection.run("COMMIT")
    }

    /// Calls `body` with each staged custom drink.
    func forEachCustomDrink(_ body: (CustomDrink) throws -> Void) throws {
        precondition(finished, "staged drinks are imported once staging is finished")
        // An export says no drink's form: each is a beverage, unless the journal knows it (below).
        let statement = try connection.prepare("SELECT name, caffeine_mg, 'beverage' FROM staged_custom_drinks")
        while try statement.step() { try body(CustomDrink(row: statement)) }
    }

    /// Calls `body` with each staged drink, in the order read, one row at a time: none is held
    /// beyond its call.
    func forEachDrink(_ body: (Drink) throws -> Void) throws {
        precondition(finished, "staged drinks are imported once staging is finished")
        let statement = try connection.prepare("SELECT id, kind, caffeine_mg, consumed_at, note FROM staged_drinks ORDER BY rowid")
        while try statement.step() { try body(Drink(row: statement)) }
    }
}

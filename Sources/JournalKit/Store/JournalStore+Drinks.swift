
/// A drink to record; the store gives it an id.
public struct NewDrink: Sendable, Equatable {
    public var kind: String
    public var caffeineMg: Double
    public var consumedAt: Timestamp
    public var note: String?

    public init(kind: String, caffeineMg: Double, consumedAt: Timestamp, note: String? = nil) {
        self.kind = kind
        self.caffeineMg = caffeineMg
        self.consumedAt = consumedAt
        self.note = note
    }
}

/// The changes `journal edit` asks for; nil leaves a field as it is, an empty note removes the note.
public struct DrinkEdit: Sendable, Equatable {
    public var kind: String?
    public var caffeineMg: Double?
    public var consumedAt: Timestamp?
    public var note: String?

    public init(kind: String? = nil, caffeineMg: Double? = nil, consumedAt: Timestamp? = nil, note: String? = nil) {
        self.kind = kind
        self.caffeineMg = caffeineMg
        self.consumedAt = consumedAt
        self.note = note
    }

    func applied(to drink: Drink) -> Drink {
        var edited = drink
        if let kind { edited.kind = kind }
        if let caffeineMg { edited.caffeineMg = caffeineMg }
        if let consumedAt { edited.consumedAt = consumedAt }
        if let note { edited.note = note.isEmpty ? nil : note }
        return edited
    }
}

extension JournalStore {
    /// Records a drink and returns it with its new id.
    public func add(_ new: NewDrink) throws -> Drink {
        let drink = Drink(
            id: DrinkID(rawValue: UUIDText.random()), kind: new.kind, caffeineMg: new.caffeineMg,
            consumedAt: new.consumedAt, note: new.note.flatMap { $0.isEmpty ? nil : $0 })
        return try write(.add) { context in
            try context.writeUndoably(drink, deleted: false, replacing: nil).payload
        }
    }

    /// Changes a live drink; returns it as it is now. An edit that changes nothing writes nothing.
    public func edit(_ id: DrinkID, _ edit: DrinkEdit) throws -> Drink {
        try write(.edit) { context in
            guard let current = try Drink.table.find(id.rawValue, in: connection), !current.isDeleted else {
                throw DrinkLookupError.notFound(id.rawValue)
            }
            let edited = edit.applied(to: current.payload)
            guard edited != current.payload else { return current.payload }
            return try context.writeUndoably(edited, deleted: false, replacing: current).payload
        }
    }

    /// Deletes live drinks, all or none; returns what was deleted. The rows stay as tombstones so the
    /// deletion reaches other machines.
    public func remove(_ ids: [DrinkID]) throws -> [Drink] {
        try write(.rm) { context in
            var removed: [Drink] = []
            for id in Set(ids).sorted() {
                guard let current = try Drink.table.find(id.rawValue, in: connection), !current.isDeleted else {
                    throw DrinkLookupError.notFound(id.rawValue)
                }
                removed.append(try context.writeUndoably(current.payload, deleted: true, replacing: current).payload)
            }
            return removed
        }
    }

    /// What stands for the latest drink where an id goes (`journal rm last`), as Taskwarrior's
    /// +LATEST and jrnl's -1: not an id, whose letters are hex digits.
    public static let lastDrinkWord = "last"

    /// The drink `reference` names: `lastDrinkWord`, the latest had (the last line of `journal
    /// list`, one dated ahead included), or its id or the start of it.
    public func drink(reference: String) throws -> Drink {
        guard reference.lowercased() == Self.lastDrinkWord else { return try drink(idPrefix: reference) }
        guard let latest = try connection.query(
            "\(Drink.table.select) WHERE deleted = 0 ORDER BY consumed_at DESC, id DESC LIMIT 1", [], row: Drink.init(row:)).first
        else { throw DrinkLookupError.noDrinks }
        return latest
    }

    /// The live drink whose id is `prefix` or starts with it.
    public func drink(idPrefix prefix: String) throws -> Drink {
        let wanted = prefix.lowercased()
        // Ids are lowercase UUIDs, so anything else cannot match; checking first keeps GLOB's
        // wildcards out of the pattern.
        guard !wanted.isEmpty, wanted.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw DrinkLookupError.notFound(prefix)
        }
        let matches = try connection.query(
            "\(Drink.table.select) WHERE id GLOB ? AND deleted = 0 ORDER BY consumed_at LIMIT 10",
            [.text(wanted + "*")], row: Drink.init(row:))
        switch matches.count {
        case 0: throw DrinkLookupError.notFound(prefix)
        case 1: return matches[0]
        default: throw DrinkLookupError.ambiguous(prefix, candidates: matches)
        }
    }

    /// Live drinks consumed in `from..<until` (either end open when nil), of `kind` when given, whose
    /// note holds each of `noteWords` (case and width aside: both `NFKCCasefold`ed), oldest
    /// first; with a `limit`, the latest `limit` of them.
    public func drinks(
        from: Timestamp? = nil, until: Timestamp? = nil, limit: Int? = nil, kind: String? = nil, noteWords: [String] = []
    ) throws -> [Drink] {
        let range = "\(Drink.table.select) WHERE deleted = 0 AND consumed_at >= ? AND consumed_at < ?"
        var values: [SQLiteValue] = [.integer(from?.milliseconds ?? Int64.min), .integer(until?.milliseconds ?? Int64.max)]
        var sql = range
        if let kind {
            sql += " AND kind = ?"
            values.append(.text(kind))
        }
        // Words are matched here, not by SQL's LIKE, which folds the case of ASCII letters alone; a
        // note without them is passed over before the limit counts it.
        if !noteWords.isEmpty { sql += " AND note IS NOT NULL" }
        sql += " ORDER BY consumed_at DESC, id DESC LIMIT ?"
        values.append(.integer(Int64(noteWords.isEmpty ? limit ?? -1 : -1)))
        var rows = try connection.query(sql, values, row: Drink.init(row:))
        if !noteWords.isEmpty {
            let wanted = noteWords.map { NFKCCasefold.folded($0) }
            rows = rows.filter { drink in
                let note = NFKCCasefold.folded(drink.note ?? "")
                return wanted.allSatisfy { note.contains($0) }
            }
            if let limit { rows = Array(rows.prefix(limit)) }
        }
        return rows.reversed()
    }

    /// The kind and caffeine of the last drink had by `now`, the one a forecast speaks in terms of
    /// ("room for one espresso"), and whether it is absorbed slowly; nil in a journal without one.
    public func lastDrink(before now: Timestamp) throws -> (kind: String, caffeineMg: Double, form: DrinkForm)? {
        try connection.query(
            "SELECT kind, caffeine_mg, \(Self.slowKindSQL) FROM drinks WHERE deleted = 0 AND consumed_at <= ? ORDER BY consumed_at DESC LIMIT 1",
            [.integer(now.milliseconds)]
        ) { ($0.text(0), $0.double(1), $0.int64(2) == 1 ? DrinkForm.slow : .beverage) }.first
    }

    /// The drinks `status` reads, from the covering index alone (v0017): a few pages, however many
    /// drinks the journal holds. The third column is 1 for a drink of a slow kind (`DrinkForm`).
    static let statusWindowSQL = intakesSQL + " AND consumed_at > ?"

    /// Live drinks as the model reads them: caffeine, time, and 1 for a slow kind, the catalog's or
    /// one's own (removed too: the drinks logged with it keep its form).
    static let intakesSQL = "SELECT caffeine_mg, consumed_at, \(slowKindSQL) FROM drinks WHERE deleted = 0"

    /// 1 for a drink of a slow kind, the catalog's or one's own.
    static let slowKindSQL =
        "kind IN (" + DrinkCatalog.builtIn.kinds.filter { $0.form == .slow }.map { "'\($0.name)'" }.joined(separator: ", ")
        + ") OR kind IN (SELECT name FROM custom_drinks WHERE form = 'slow')"

    static func intake(_ row: SQLiteStatement) -> CaffeineIntake {
        CaffeineIntake(caffeineMg: row.double(0), consumedAt: Timestamp(milliseconds: row.int64(1)), form: row.int64(2) == 1 ? .slow : .beverage)
    }

    /// The drinks had from `start` (excluded) through `end`, oldest first: what the level at any
    /// instant up to `end` needs, when `start` is the model's window before the first.
    public func intakes(after start: Timestamp, through end: Timestamp) throws -> [CaffeineIntake] {
        try connection.query(
            Self.intakesSQL + " AND consumed_at > ? AND consumed_at <= ? ORDER BY consumed_at",
            [.integer(start.milliseconds), .integer(end.milliseconds)], row: Self.intake)
    }

    /// The caffeine in the body at `now`, the day's intake (the day starting at
    /// `settings.dayStartsAt`), when the level will stay under `settings.sleepThresholdMg`, and,
    /// with a bedtime set, the night's forecast and the room left: of the drinks had by `now`, with those dated
    /// later counted apart (`FutureDrinks`).
    public func status(settings: JournalSettings = .defaults, at now: Timestamp? = nil) throws -> CaffeineStatus {
        let now = now ?? clock.now()
        // Every drink that still counts, also ones logged a little ahead of now, and every one of
        // today: at a short half-life the window (24 h at 1 h) is shorter than a 25-hour day.
        let since = min(now - settings.model.negligibleAfter, CaffeineStatus.today(settings: settings, at: now).lowerBound - .milliseconds(1))
        let window = try connection.query(Self.statusWindowSQL, [.integer(since.milliseconds)], row: Self.intake)
        return CaffeineStatus(window: window, settings: settings, at: now)
    }

}

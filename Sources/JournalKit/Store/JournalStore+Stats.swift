/// One local day's intake.
public struct DayTotal: Sendable, Equatable {
    public let date: LocalDate
    public let caffeineMg: Double
    public let drinks: Int

    public init(date: LocalDate, caffeineMg: Double, drinks: Int) {
        self.date = date
        self.caffeineMg = caffeineMg
        self.drinks = drinks
    }
}

/// One kind of drink's part of an intake.
public struct KindTotal: Sendable, Equatable {
    public let kind: String
    public let caffeineMg: Double
    public let drinks: Int
}

extension JournalStore {
    /// Every day from `first` through `last`, days without drinks included, each starting at
    /// `dayStartsAt`, of the drinks had by `now`: one dated later than could be entered then has not
    /// been had yet (`EntryRules`).
    public func dailyTotals(from first: LocalDate, through last: LocalDate, dayStartsAt: ClockTime = .midnight, now: Timestamp) throws
        -> [DayTotal]
    {
        // The day of a drink as the daily_totals view reckons it: its local time less the day's start.
        let rows = try connection.query(
            """
            SELECT date(consumed_at / 1000, 'unixepoch', 'localtime', ?) AS day, total(caffeine_mg), count(*)
            FROM drinks WHERE deleted = 0 AND consumed_at >= ? AND consumed_at < ? AND consumed_at <= ?
            GROUP BY day
            """,
            [.text("-\(dayStartsAt.minutes) minutes"),
             .integer(LocalTime.start(of: first, startingAt: dayStartsAt).milliseconds),
             .integer(LocalTime.start(of: last.adding(days: 1), startingAt: dayStartsAt).milliseconds),
             .integer(EntryRules.latest(at: now).milliseconds)]
        ) { ($0.text(0), $0.double(1), Int($0.int64(2))) }
        var byDay: [String: (Double, Int)] = [:]
        for (day, mg, count) in rows { byDay[day] = (mg, count) }
        var totals: [DayTotal] = []
        var date = first
        while date <= last {
            let found = byDay[date.description]
            totals.append(DayTotal(date: date, caffeineMg: found?.0 ?? 0, drinks: found?.1 ?? 0))
            date = date.adding(days: 1)
        }
        return totals
    }

    /// The day (starting at `dayStartsAt`) of the first drink had by `now`, as `dailyTotals` counts
    /// drinks; nil when there is none.
    public func firstDrinkDay(dayStartsAt: ClockTime = .midnight, now: Timestamp) throws -> LocalDate? {
        let first = try connection.query(
            "SELECT min(consumed_at) FROM drinks WHERE deleted = 0 AND consumed_at <= ?",
            [.integer(EntryRules.latest(at: now).milliseconds)]
        ) { $0.isNull(0) ? nil : $0.int64(0) }.first ?? nil
        return first.map { LocalTime.day(of: Timestamp(milliseconds: $0), startingAt: dayStartsAt) }
    }

    /// Caffeine and drinks per kind over the days `first` through `last`, most caffeine first, of the
    /// drinks had by `now` (as `dailyTotals`).
    public func kindTotals(from first: LocalDate, through last: LocalDate, dayStartsAt: ClockTime = .midnight, now: Timestamp) throws
        -> [KindTotal]
    {
        try connection.query(
            """
            SELECT kind, total(caffeine_mg) AS mg, count(*) FROM drinks
            WHERE deleted = 0 AND consumed_at >= ? AND consumed_at < ? AND consumed_at <= ?
            GROUP BY kind ORDER BY mg DESC, kind
            """,
            [.integer(LocalTime.start(of: first, startingAt: dayStartsAt).milliseconds),
             .integer(LocalTime.start(of: last.adding(days: 1), startingAt: dayStartsAt).milliseconds),
             .integer(EntryRules.latest(at: now).milliseconds)]
        ) { KindTotal(kind: $0.text(0), caffeineMg: $0.double(1), drinks: Int($0.int64(2))) }
    }
}

extension JournalStore {
    /// The name under which `local_settings` keeps the day's start for the daily_totals view.
    static let dayStartSetting = "day_starts_at_minutes"

    /// Keeps `start` where the daily_totals view reads it, writing only when it changed: the view
    /// cannot read the settings file, so the commands that read the settings tell it.
    public func keepDayStart(_ start: ClockTime) throws {
        let kept = try connection.queryInteger("SELECT value FROM local_settings WHERE name = ?", .text(Self.dayStartSetting))
        guard kept != Int64(start.minutes) else { return }
        if start == .midnight, kept == nil { return }
        try connection.run(
            "INSERT INTO local_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            .text(Self.dayStartSetting), .integer(Int64(start.minutes)))
    }
}

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
    /// Every local day from `first` through `last`, days without drinks included.
    public func dailyTotals(from first: LocalDate, through last: LocalDate) throws -> [DayTotal] {
        let rows = try connection.query(
            """
            SELECT date(consumed_at / 1000, 'unixepoch', 'localtime') AS day, total(caffeine_mg), count(*)
            FROM drinks WHERE deleted = 0 AND consumed_at >= ? AND consumed_at < ?
            GROUP BY day
            """,
            [.integer(LocalTime.startOfDay(first).milliseconds),
             .integer(LocalTime.startOfDay(last.adding(days: 1)).milliseconds)]
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

    /// Caffeine and drinks per kind over the local days `first` through `last`, most caffeine first.
    public func kindTotals(from first: LocalDate, through last: LocalDate) throws -> [KindTotal] {
        try connection.query(
            """
            SELECT kind, total(caffeine_mg) AS mg, count(*) FROM drinks
            WHERE deleted = 0 AND consumed_at >= ? AND consumed_at < ?
            GROUP BY kind ORDER BY mg DESC, kind
            """,
            [.integer(LocalTime.startOfDay(first).milliseconds),
             .integer(LocalTime.startOfDay(last.adding(days: 1)).milliseconds)]
        ) { KindTotal(kind: $0.text(0), caffeineMg: $0.double(1), drinks: Int($0.int64(2))) }
    }
}

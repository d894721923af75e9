/// The average intake a day over a run of days, counted from the journal's first drink: the days
/// before it say nothing of a person's habit (a journal begun today averaging 191 mg over seven days
/// would say 27 mg a day).
public struct DailyAverage: Sendable, Equatable {
    /// The days averaged over: those of the run from the first drink on.
    public let days: Int
    public let mg: Double
    /// Of those days, how many were over `limit`.
    public let daysOverLimit: Int
    /// Whether days of the run came before the journal's first drink and are left out.
    public let startsAtFirstDrink: Bool

    /// `totals`, a run of consecutive days; `firstDrinkDay` the day of the journal's first drink
    /// (nil when it has none).
    public init(totals: [DayTotal], firstDrinkDay: LocalDate?, limit: Double) {
        let counted = firstDrinkDay.map { first in totals.filter { $0.date >= first } } ?? []
        days = counted.count
        mg = counted.isEmpty ? 0 : counted.reduce(0) { $0 + $1.caffeineMg } / Double(counted.count)
        daysOverLimit = counted.filter { $0.caffeineMg > limit }.count
        startsAtFirstDrink = counted.count < totals.count
    }
}

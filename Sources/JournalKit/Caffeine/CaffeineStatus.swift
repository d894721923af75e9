/// What `journal status` reports: the caffeine in you now, and today's intake.
public struct CaffeineStatus: Sendable, Equatable {
    public var at: Timestamp
    public var currentMg: Double
    public var todayMg: Double
    public var drinksToday: Int

    /// Today's caffeine in 8 oz cups of coffee (96 mg each), as Coffee Tracker counts.
    public var cupsToday: Double { todayMg / CaffeineModel.milligramsPerCup }

    public init(at: Timestamp, currentMg: Double, todayMg: Double, drinksToday: Int) {
        self.at = at
        self.currentMg = currentMg
        self.todayMg = todayMg
        self.drinksToday = drinksToday
    }
}

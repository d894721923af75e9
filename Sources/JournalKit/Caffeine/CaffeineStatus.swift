/// What `journal status` reports: the caffeine in you now, and today's intake.
public struct CaffeineStatus: Sendable, Equatable {
    public var at: Timestamp
    /// The model every number here comes from.
    public var model: CaffeineModel
    /// The amount in the body now.
    public var currentMg: Double
    public var todayMg: Double
    public var drinksToday: Int
    /// When the level is under the sleep threshold for good; nil when it already is.
    public var sleepReadyAt: Timestamp?
    /// When the level is highest, while a drink is still being absorbed (by the personal model); nil
    /// once it is falling.
    public var peaksAt: Timestamp?
    /// The drinks that still count, for charting the level around now.
    public var intakes: [CaffeineIntake] = []
    /// The night under way or the next, when a bedtime is set.
    public var bedtime: BedtimeForecast?
    /// How much more can be had now, when a bedtime is set.
    public var room: RoomLeft?
    /// Drinks dated after now that no number here counts; nil when there are none.
    public var futureDrinks: FutureDrinks?

    /// The status at `now` of the drinks in `window`: every drink that still counts by `settings`'
    /// model and every one of today, with those dated later than could be entered now among them
    /// (counted apart, as `FutureDrinks`: counted, one would stand in the day and in every forecast,
    /// a drink in 2199 keeping the level over the threshold until then). An empty window is the
    /// status of a journal with no drinks.
    public init(window: [CaffeineIntake], settings: JournalSettings, at now: Timestamp) {
        let model = settings.model
        let today = Self.today(settings: settings, at: now)
        let (intakes, future) = FutureDrinks.separate(window, at: now)
        var todayMg = 0.0
        var drinksToday = 0
        for intake in intakes where today.contains(intake.consumedAt) {
            todayMg += intake.caffeineMg
            drinksToday += 1
        }
        let night = settings.bedtime.map { model.bedtimeForecast(bedtime: $0, threshold: settings.sleepThresholdMg, now: now, intakes: intakes) }
        self.init(
            at: now, model: model, currentMg: model.level(at: now, of: intakes), todayMg: todayMg, drinksToday: drinksToday,
            sleepReadyAt: model.sleepReadyAt(threshold: settings.sleepThresholdMg, now: now, intakes: intakes),
            peaksAt: model.peaksAt(now: now, intakes: intakes),
            intakes: intakes, bedtime: night,
            room: night.map { RoomLeft(night: $0, todayMg: todayMg, dailyLimitMg: settings.dailyLimitMg) },
            futureDrinks: future)
    }

    /// Today, as `settings` start a day: the drinks of it are today's intake.
    public static func today(settings: JournalSettings, at now: Timestamp) -> Range<Timestamp> {
        let day = LocalTime.day(of: now, startingAt: settings.dayStartsAt)
        return LocalTime.start(of: day, startingAt: settings.dayStartsAt)..<LocalTime.start(of: day.adding(days: 1), startingAt: settings.dayStartsAt)
    }

    /// Today's caffeine in 8 oz cups of coffee (96 mg each), as Coffee Tracker counts.
    public var cupsToday: Double { todayMg / CaffeineModel.milligramsPerCup }

    /// The level now in mg/L, with a weight set; nil without one.
    public var currentMgPerLitre: Double? { model.milligramsPerLitre(currentMg) }

    public init(
        at: Timestamp, model: CaffeineModel = CaffeineModel(), currentMg: Double, todayMg: Double, drinksToday: Int,
        sleepReadyAt: Timestamp? = nil, peaksAt: Timestamp? = nil, intakes: [CaffeineIntake] = [], bedtime: BedtimeForecast? = nil, room: RoomLeft? = nil, futureDrinks: FutureDrinks? = nil
    ) {
        self.at = at
        self.model = model
        self.currentMg = currentMg
        self.todayMg = todayMg
        self.drinksToday = drinksToday
        self.sleepReadyAt = sleepReadyAt
        self.peaksAt = peaksAt
        self.intakes = intakes
        self.bedtime = bedtime
        self.room = room
        self.futureDrinks = futureDrinks
    }
}

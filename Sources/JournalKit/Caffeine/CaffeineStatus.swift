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

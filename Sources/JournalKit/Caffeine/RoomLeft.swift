/// How much more caffeine can be had now, with a bedtime set: the least of what today's limit leaves
/// and what still lets you be under the sleep threshold at bedtime; none past bedtime.
public struct RoomLeft: Sendable, Equatable {
    /// What holds the room to its size.
    public enum Bound: String, Sendable {
        /// Under the sleep threshold at bedtime.
        case bedtime
        /// What is left of today's limit.
        case dailyLimit = "daily-limit"
        /// The night is under way: nothing more.
        case pastBedtime = "past-bedtime"
    }

    /// Rounded down to the hundredth; 0 when there is no room.
    public let mg: Double
    public let bound: Bound
    /// The latest minute a cup (`CaffeineModel.milligramsPerCup`) can be had: the night's, while
    /// today's limit leaves room for a whole cup; nil otherwise.
    public let lastCupBy: Timestamp?

    public init(night: BedtimeForecast, todayMg: Double, dailyLimitMg: Double) {
        let limitLeft = (max(0, dailyLimitMg - todayMg) * 100).rounded(.down) / 100
        if night.isPast {
            (mg, bound) = (0, .pastBedtime)
        } else if limitLeft < night.roomMg {
            (mg, bound) = (limitLeft, .dailyLimit)
        } else {
            (mg, bound) = (night.roomMg, .bedtime)
        }
        lastCupBy = limitLeft >= CaffeineModel.milligramsPerCup ? night.lastCupBy : nil
    }
}

/// Where a person stands, in a word, for a prompt or a bar (`status --format '{state}'`).
public enum CaffeineState: String, Sendable {
    /// Today's intake is past the daily limit.
    case overLimit = "over-limit"
    /// With a bedtime set: nothing with caffeine now lets you sleep at bedtime, or it is past bedtime.
    case curfew
    /// The level now is at or above the sleep threshold.
    case awake
    case sleepReady = "sleep-ready"

    /// The first that holds, in the order above.
    public init(_ status: CaffeineStatus, settings: JournalSettings) {
        if status.todayMg > settings.dailyLimitMg {
            self = .overLimit
        } else if status.bedtime?.isCurfew == true {
            self = .curfew
        } else {
            self = status.currentMg >= settings.sleepThresholdMg ? .awake : .sleepReady
        }
    }
}

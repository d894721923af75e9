/// Drinks dated after now, past what a person can enter ahead of it (`EntryRules`): not had yet, so
/// no number of `status` counts them (a member whose clock and drink both say 2199 would otherwise
/// keep everyone "awake" until 2200), and `status` says how many it left out and when the first is,
/// so that a drink dated wrong is seen rather than silently missing.
public struct FutureDrinks: Sendable, Equatable {
    public var count: Int
    /// The earliest of them.
    public var first: Timestamp

    public init(count: Int, first: Timestamp) {
        self.count = count
        self.first = first
    }

    /// `drinks` had by `now` (also ones dated a little ahead, as a person may enter them), and those
    /// dated later; nil when there are none.
    static func separate(_ drinks: [CaffeineIntake], at now: Timestamp) -> (had: [CaffeineIntake], future: FutureDrinks?) {
        let latest = EntryRules.latest(at: now)
        var had: [CaffeineIntake] = []
        var future: FutureDrinks?
        for drink in drinks {
            if drink.consumedAt <= latest {
                had.append(drink)
            } else if let earlier = future {
                future = FutureDrinks(count: earlier.count + 1, first: min(earlier.first, drink.consumedAt))
            } else {
                future = FutureDrinks(count: 1, first: drink.consumedAt)
            }
        }
        return (had, future)
    }
}

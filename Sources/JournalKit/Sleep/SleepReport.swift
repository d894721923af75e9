/// What the nights say: each night with the caffeine in the body at its lights-out (by the model in
/// effect), and the nights grouped by that caffeine, with the median time to fall asleep and sleep of
/// each group, and how much longer the highest group took to fall asleep than the lowest, with a
/// bootstrap 95% interval. It compares nights; it does not tell why they differ.
public struct SleepReport: Sendable, Equatable {
    /// One night, with the caffeine it began with.
    public struct Row: Sendable, Equatable {
        public var night: Night
        public var caffeineAtLightsOutMg: Double
        /// The last drink had by lights-out, within the model's window before it; nil when there is none.
        public var lastDrinkAt: Timestamp?
    }

    /// Nights whose caffeine at lights-out is from `fromMg` up to but not including `toMg`.
    public struct Group: Sendable, Equatable {
        public var label: String
        public var fromMg: Double
        /// nil: no upper bound.
        public var toMg: Double?
        public var nights: Int
        /// Of those, the nights whose time to fall asleep is known (`Night.lightsOutKnown`): the
        /// median time to fall asleep and the difference are theirs.
        public var nightsWithLatency: Int
        public var medianLatencyMinutes: Double?
        public var medianAsleepMinutes: Double?
    }

    /// The highest group's median time to fall asleep less the lowest's, in minutes, and its interval.
    public struct Difference: Sendable, Equatable {
        public var latencyMinutes: Double
        public var low: Double
        public var high: Double
    }

    /// Nights the lowest and the highest group each need before a difference is told.
    public static let nightsPerGroup = 8
    /// Resamples of the bootstrap, and the seed of its generator: the same nights give the same interval.
    public static let resamples = 2000
    public static let seed: UInt64 = 0x5EED_CAFE
    /// No threshold under this is suggested: each suggestion halves the groups' bounds, and nights under
    /// 10 mg at lights-out are nights without caffeine to speak of.
    public static let lowestSuggestion = 10.0

    public var rows: [Row]
    public var groups: [Group]
    public var difference: Difference?
    /// A sleep threshold the nights point to: the lowest group's upper bound, when the highest group
    /// took clearly longer to fall asleep (the interval is above no difference) and it is at least
    /// `lowestSuggestion`; nil otherwise.
    public var suggestedThresholdMg: Double?
    /// Nights (with a known time to fall asleep) the lowest and highest groups still need, together;
    /// nil once both have enough.
    public var nightsNeeded: Int?

    /// The report of `nights`, with `intakes` (every drink the model's window before the first
    /// lights-out holds, and after), the groups' bounds from the sleep threshold: under half of it,
    /// from half of it to it, and from it up.
    public init(nights: [Night], intakes: [CaffeineIntake], model: CaffeineModel, thresholdMg: Double) {
        // Each night sums only the drinks of the model's window before it, found by halving in order.
        let sorted = intakes.sorted { $0.consumedAt < $1.consumedAt }
        func after(_ instant: Timestamp) -> Int {
            var (low, high) = (0, sorted.count)
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle].consumedAt <= instant { low = middle + 1 } else { high = middle }
            }
            return low
        }
        rows = nights.map { night in
            let had = Array(sorted[after(night.inBedAt - model.negligibleAfter)..<after(night.inBedAt)])
            return Row(night: night, caffeineAtLightsOutMg: model.level(at: night.inBedAt, of: had), lastDrinkAt: had.last?.consumedAt)
        }
        let bounds: [(Double, Double?)] = [(0, thresholdMg / 2), (thresholdMg / 2, thresholdMg), (thresholdMg, nil)]
        var members: [[Row]] = []
        groups = []
        for (from, to) in bounds {
            let inGroup = rows.filter { row in row.caffeineAtLightsOutMg >= from && (to.map { row.caffeineAtLightsOutMg < $0 } ?? true) }
            members.append(inGroup)
            let label = to.map { from == 0 ? "under \(formatMilligrams($0)) mg" : "\(formatMilligrams(from)) to \(formatMilligrams($0)) mg" }
                ?? "\(formatMilligrams(from)) mg and over"
            let latencies = inGroup.compactMap(\.night.latencyMinutes)
            groups.append(Group(
                label: label, fromMg: from, toMg: to, nights: inGroup.count, nightsWithLatency: latencies.count,
                medianLatencyMinutes: Self.median(latencies),
                medianAsleepMinutes: Self.median(inGroup.map(\.night.asleepMinutes))))
        }
        let lowest = members[0].compactMap(\.night.latencyMinutes), highest = members[members.count - 1].compactMap(\.night.latencyMinutes)
        let needed = max(0, Self.nightsPerGroup - lowest.count) + max(0, Self.nightsPerGroup - highest.count)
        nightsNeeded = needed > 0 ? needed : nil
        difference = nil
        suggestedThresholdMg = nil
        if needed == 0, let high = Self.median(highest), let low = Self.median(lowest) {
            let (lower, upper) = Self.interval(highest, lowest)
            difference = Difference(latencyMinutes: high - low, low: lower, high: upper)
            if lower > 0, let bound = groups[0].toMg, bound >= Self.lowestSuggestion { suggestedThresholdMg = bound }
        }
    }

    /// The middle value, or the mean of the two middle ones; nil for none.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The percentile bootstrap 95% interval of median(`a`) - median(`b`): `resamples` times, each group
    /// drawn again with replacement (`a` first, index by index, then `b`), by `SplitMix64` from `seed`;
    /// the differences sorted, the 51st and the 1950th of 2000 (indices 50 and 1949): 50 left out at
    /// each end.
    static func interval(_ a: [Double], _ b: [Double]) -> (Double, Double) {
        var generator = SplitMix64(seed: seed)
        var differences: [Double] = []
        differences.reserveCapacity(resamples)
        for _ in 0..<resamples {
            let drawnA = a.indices.map { _ in a[Int(generator.next() % UInt64(a.count))] }
            let drawnB = b.indices.map { _ in b[Int(generator.next() % UInt64(b.count))] }
            differences.append(median(drawnA)! - median(drawnB)!)
        }
        differences.sort()
        return (differences[resamples * 25 / 1000], differences[(resamples * 975 + 999) / 1000 - 1])
    }
}

/// Steele, Lea and Flood's SplitMix64: a small generator whose every output a test can compute again.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

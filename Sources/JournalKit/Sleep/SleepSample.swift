/// One sample of a sleep tracker: a stretch of time in one stage, from one source.
public struct SleepSample: Hashable, Sendable {
    /// What the tracker says the person was doing: the stages of Apple Health's sleep analysis, the
    /// names `sleep-csv` takes.
    public enum Stage: String, Sendable, CaseIterable {
        case inBed = "in_bed"
        /// Asleep, stage unknown.
        case asleep
        /// Light or intermediate sleep.
        case core
        case deep
        case rem
        case awake

        /// Any stage of sleep.
        public var isAsleep: Bool { self == .asleep || self == .core || self == .deep || self == .rem }
    }

    public var start: Timestamp
    public var end: Timestamp
    public var stage: Stage
    /// The app or device that wrote it ("Apple Watch", "iPhone").
    public var source: String

    public init(start: Timestamp, end: Timestamp, stage: Stage, source: String) {
        self.start = start
        self.end = end
        self.stage = stage
        self.source = source
    }

    /// The longest sample a tracker writes that is taken as one: a stage lasting more than a day is a
    /// mistake of the export, named and skipped.
    public static let longest: Int64 = 24 * 3_600_000
}

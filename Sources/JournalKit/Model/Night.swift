/// One night's sleep, as the import found it in a tracker's samples (`SleepNights`): when the person
/// went to bed, fell asleep and woke, how long they slept and how often they woke in between, and which
/// tracker told. A night is dated by the evening of its lights-out (`NightDate`): it is one record per
/// date, on every machine, so that a night imported twice, or from two trackers, is counted once.
public struct Night: Hashable, Sendable {
    /// The evening the night began.
    public var date: LocalDate
    /// Lights-out; the first sample of sleep when the tracker gave none of its own (no in-bed
    /// sample): then `lightsOutKnown` is false.
    public var inBedAt: Timestamp
    /// The first sample of sleep.
    public var asleepAt: Timestamp
    /// The end of the last sample of sleep.
    public var wokeAt: Timestamp
    /// Asleep in all, every stage of sleep summed, in milliseconds.
    public var asleepMilliseconds: Int64
    /// Times awake between two stretches of sleep.
    public var awakenings: Int
    /// The tracker the night's figures are from, as the export names it ("Apple Watch").
    public var source: String

    public init(
        date: LocalDate, inBedAt: Timestamp, asleepAt: Timestamp, wokeAt: Timestamp, asleepMilliseconds: Int64, awakenings: Int,
        source: String
    ) {
        self.date = date
        self.inBedAt = inBedAt
        self.asleepAt = asleepAt
        self.wokeAt = wokeAt
        self.asleepMilliseconds = asleepMilliseconds
        self.awakenings = awakenings
        self.source = source
    }

    /// Whether the tracker said when the person went to bed, apart from when they fell asleep: a night
    /// without an in-bed sample has its lights-out at its first sample of sleep, and it cannot say
    /// how long falling asleep took (that is unknown, not 0 min).
    public var lightsOutKnown: Bool { inBedAt < asleepAt }

    /// Minutes from lights-out to sleep; nil when the night cannot tell (`lightsOutKnown`).
    public var latencyMinutes: Double? { lightsOutKnown ? Double(asleepAt.milliseconds - inBedAt.milliseconds) / 60_000 : nil }
    /// Minutes asleep in all.
    public var asleepMinutes: Double { Double(asleepMilliseconds) / 60_000 }
}

/// The one rule for what a night may be, whichever way it comes: an import or another device. It
/// depends on nothing but the record, so every device refuses the same ones.
public enum NightRules {
    /// The longest night: from lights-out to waking.
    public static let longest: Int64 = 24 * 3_600_000
    public static let maximumAwakenings = 1000
    public static let maximumSourceLength = 100

    public static func check(_ night: Night) throws(InvalidRecordError) {
        func refuse(_ problem: String) -> InvalidRecordError { InvalidRecordError(problem: "the night of \(night.date): \(problem)", kind: .badData) }
        guard NightDate.isValid(night.date) else { throw refuse("its date is not a day of the calendar") }
        for time in [night.inBedAt, night.asleepAt, night.wokeAt] {
            guard time >= DrinkRules.earliest, time < DrinkRules.end else { throw refuse("its times must be between 1900 and 2199") }
        }
        guard night.inBedAt <= night.asleepAt, night.asleepAt <= night.wokeAt else {
            throw refuse("it must go to bed, fall asleep and wake in that order")
        }
        guard night.wokeAt.milliseconds - night.inBedAt.milliseconds <= longest else { throw refuse("it lasts more than 24 hours") }
        guard night.asleepMilliseconds >= 0, night.asleepMilliseconds <= night.wokeAt.milliseconds - night.asleepAt.milliseconds else {
            throw refuse("its sleep does not fit between falling asleep and waking")
        }
        guard (0...maximumAwakenings).contains(night.awakenings) else { throw refuse("it has \(night.awakenings) awakenings") }
        // Its date is the evening of its lights-out in some time zone: within a day and a half of it.
        let noon = NightDate.utcNoon(of: night.date)
        guard abs(night.inBedAt.milliseconds - noon) <= 36 * 3_600_000 else { throw refuse("its lights-out is not on that evening") }
        if let problem = sourceProblem(night.source) { throw refuse(problem) }
    }

    /// Why `source` cannot name the tracker of a night, or nil when it can: 1 to 100 characters, no
    /// control or format character (a terminal would act on them). One rule for a peer's night, a
    /// CSV's line and a Health record.
    public static func sourceProblem(_ source: String) -> String? {
        let scalars = source.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maximumSourceLength,
            !scalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
        else { return "its source must be 1 to \(maximumSourceLength) characters, none of them a control" }
        return nil
    }
}

/// Night dates: the evening a night began, and the text `YYYY-MM-DD` records carry.
public enum NightDate {
    /// A lights-out between midnight and noon belongs to the night of the day before.
    public static func of(lightsOut: Timestamp) -> LocalDate {
        let local = LocalTime.components(lightsOut)
        return local.hour < 12 ? local.date.adding(days: -1) : local.date
    }

    /// `2026-11-21`, strictly; nil for anything else.
    public static func parse(_ text: String) -> LocalDate? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 45, bytes[7] == 45 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        let date = LocalDate(year: year, month: month, day: day)
        return isValid(date) ? date : nil
    }

    static func isValid(_ date: LocalDate) -> Bool {
        (1900...2199).contains(date.year) && CivilCalendar.daysSinceEpoch(year: date.year, month: date.month, day: date.day) != nil
    }

    /// Noon UTC of `date` (a valid one), in Unix milliseconds.
    static func utcNoon(of date: LocalDate) -> Int64 {
        Int64(CivilCalendar.daysSinceEpoch(year: date.year, month: date.month, day: date.day) ?? 0) * 86_400_000 + 12 * 3_600_000
    }
}

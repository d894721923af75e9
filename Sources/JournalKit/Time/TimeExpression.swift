/// Reads the times people type: `08:30`, `3pm`, `noon`, `yesterday 3pm`, `last monday 9:00`,
/// `20 nov 8:00`, `nov 20 2025 8am`, `30 min ago`, `1h30m ago`, `2 days ago 8am`, and ISO 8601
/// (`2026-11-21T08:30`, with or without an offset; local when none). Clock times without a day are
/// today; a day of a month without a year is its latest that is not after today. A bound of a range
/// (`list --since`) may be a day alone (`yesterday`, `monday`, `20 nov`, `2026-11-25`): its start.
public struct TimeExpression: Sendable {
    static let examples = "08:30, 3pm, yesterday 21:00, 20 nov 8:00, 30 min ago, 2 days ago 8am, last monday 9:00, 2026-11-21T08:30"

    public let now: Timestamp

    public init(now: Timestamp) { self.now = now }

    /// The instant `text` names. Unless `allowFuture`, more than five minutes ahead of now is refused.
    public func parse(_ text: String, allowFuture: Bool = false) throws(TimeParseError) -> Timestamp {
        guard case .instant(let instant) = try read(text, allowFuture: allowFuture, dayAlone: false) else {
            preconditionFailure("a day alone is read only when asked for")
        }
        return instant
    }

    /// The instant `text` names as a bound of a range (`list --since`, `--until`): also a day alone,
    /// as the instant that day starts at, days starting at `dayStart`; today, yesterday and the days
    /// of the week alone count from the day now is in by that start (at 01:30, with days starting at
    /// 04:00, today began yesterday at 04:00).
    public func parseBound(_ text: String, dayStart: ClockTime) throws(TimeParseError) -> Timestamp {
        switch try read(text, allowFuture: true, dayAlone: true, today: LocalTime.day(of: now, startingAt: dayStart)) {
        case .instant(let instant): return instant
        case .day(let date): return LocalTime.start(of: date, startingAt: dayStart)
        }
    }

    private func read(_ text: String, allowFuture: Bool, dayAlone: Bool, today: LocalDate? = nil) throws(TimeParseError) -> TimeExpressionReader.Reading {
        let input = text.trimmingSpaces
        let lowered = input.lowercased()
        guard !lowered.isEmpty else { throw failure(input, "it is empty") }
        var reader = TimeExpressionReader(input: input, text: lowered, now: now, dayAlone: dayAlone, dayAloneToday: today)
        let reading = try reader.read()
        guard case .instant(let instant) = reading else { return reading }
        // The journal's rule for a drink's time, said in the words of a time typed.
        guard instant >= DrinkRules.earliest, instant < DrinkRules.end else {
            throw TimeParseError(
                input: input, reason: "it is \(instant < DrinkRules.earliest ? "before 1900" : "after 2199"), which no drink's time can be",
                example: Self.examples)
        }
        if !allowFuture, !EntryRules.allows(instant, now: now) {
            var example = "'now' or an earlier time"
            if reader.wasClockTimeToday, case let clock? = reader.clockText {
                example = "'yesterday \(clock)' for yesterday"
            }
            throw TimeParseError(
                input: input,
                reason: "it is in the future (\(LocalTime.display(instant))); a drink can be logged up to "
                    + "5 minutes ahead", example: example)
        }
        return reading
    }

    private func failure(_ input: String, _ reason: String) -> TimeParseError {
        TimeParseError(input: input, reason: reason, example: Self.examples)
    }
}

extension TimeExpressionReader {
    /// Lowercase words, with numbers split from units ("30min" is "30 min", "8am" is "8 am").
    static func tokenize(_ text: String) -> [String] {
        var tokens: [String] = []
        for word in text.split(separator: " ") {
            var current = ""
            var currentIsNumber: Bool?
            for character in word {
                let isNumber = character.isASCII && (character.isNumber || character == ":")
                if let kind = currentIsNumber, kind != isNumber {
                    tokens.append(current)
                    current = ""
                }
                current.append(character)
                currentIsNumber = isNumber
            }
            if !current.isEmpty { tokens.append(current) }
        }
        return tokens
    }
}

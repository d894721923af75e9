/// One pass over the words of a time expression.
struct TimeExpressionReader {
    /// What the words name: an instant, or, where a day alone is taken, a day.
    enum Reading {
        case instant(Timestamp)
        case day(LocalDate)
    }

    let input: String
    let lowered: String
    let now: Timestamp
    /// A day without a time of day is taken (a bound of a range), not refused.
    let dayAlone: Bool
    /// The day a day alone counts from (the person's day, by when it starts); nil for the calendar's.
    let dayAloneToday: LocalDate?
    var tokens: [String]
    var position = 0
    var wasClockTimeToday = false
    var clockText: String?

    init(input: String, text: String, now: Timestamp, dayAlone: Bool, dayAloneToday: LocalDate? = nil) {
        self.input = input
        self.lowered = text
        self.now = now
        self.dayAlone = dayAlone
        self.dayAloneToday = dayAloneToday
        self.tokens = TimeExpressionReader.tokenize(text)
    }

    mutating func read() throws(TimeParseError) -> Reading {
        if tokens == ["now"] { return .instant(now) }
        if ISO8601Reader.looksLikeDate(lowered) {
            if dayAlone, let date = ISO8601Reader.dateAlone(lowered) {
                guard case .unique = LocalTime.resolve(date, hour: 12, minute: 0) else { throw fail("there is no such day") }
                return .day(date)
            }
            return .instant(try ISO8601Reader.parse(input))
        }
        if let agoIndex = tokens.firstIndex(of: "ago") {
            return .instant(try readRelative(agoIndex: agoIndex))
        }
        let day = try readDay()
        guard let clock = try readClock() else {
            if let day, position == tokens.count {
                if dayAlone { return .day(day) }
                throw fail("a day needs a time of day", example: "\(input) 8:00, \(input) 3pm")
            }
            if position < tokens.count, day != nil { throw fail("'\(tokens[position])' is not understood here") }
            throw fail("it is not a time this journal understands")
        }
        // "3pm yesterday" as well as "yesterday 3pm".
        let trailingDay = day == nil ? try readDay() : nil
        guard position == tokens.count else { throw fail("'\(tokens[position])' is not understood here") }
        let date = day ?? trailingDay
        if date == nil {
            wasClockTimeToday = true
            clockText = clock.text
        }
        return .instant(try resolve(date ?? LocalTime.components(now).date, clock))
    }

    // MARK: Relative times

    private mutating func readRelative(agoIndex: Int) throws(TimeParseError) -> Timestamp {
        var days = 0
        var milliseconds: Int64 = 0
        var index = 0
        guard agoIndex > 0 else { throw fail("'ago' needs an amount before it", example: "30 min ago") }
        while index < agoIndex {
            let amountToken = tokens[index]
            let amount: Int
            if amountToken == "a" || amountToken == "an" {
                amount = 1
            } else if let number = Int(amountToken), number >= 0, number <= 100_000 {
                amount = number
            } else {
                throw fail("'\(amountToken)' is not a whole number", example: "30 min ago, 2h ago")
            }
            guard index + 1 < agoIndex else {
                throw fail("\(amountToken) of what? Add a unit", example: "\(amountToken) min ago")
            }
            let unit = tokens[index + 1]
            switch unit {
            case "s", "sec", "secs", "second", "seconds": milliseconds += Int64(amount) * 1000
            case "m", "min", "mins", "minute", "minutes": milliseconds += Int64(amount) * 60_000
            case "h", "hr", "hrs", "hour", "hours": milliseconds += Int64(amount) * 3_600_000
            case "d", "day", "days": days += amount
            case "w", "wk", "week", "weeks": days += amount * 7
            default: throw fail("'\(unit)' is not a unit of time", example: "30 min ago, 2h ago, 3 days ago")
            }
            index += 2
        }
        position = agoIndex + 1
        let today = LocalTime.components(now)
        if position < tokens.count {
            // "2 days ago 8am": a day counted back, at a time of day.
            guard milliseconds == 0, days > 0 else {
                throw fail("only whole days ago can take a time of day", example: "2 days ago 8am")
            }
            guard let clock = try readClock(), position == tokens.count else {
                throw fail("the words after 'ago' are not a time of day", example: "2 days ago 8am")
            }
            return try resolve(today.date.adding(days: -days), clock)
        }
        guard days > 0 else { return now - .milliseconds(milliseconds) }
        // Whole days keep the wall-clock time, across a daylight saving change.
        let base: Timestamp
        switch LocalTime.resolve(
            today.date.adding(days: -days), hour: today.hour, minute: today.minute, second: today.second,
            millisecond: today.millisecond)
        {
        case .unique(let instant), .repeated(let instant, _): base = instant
        case .skipped, .invalid: base = now - .seconds(Int64(days) * 86_400)
        }
        return base - .milliseconds(milliseconds)
    }

    // MARK: Days

    private static let weekdays: [String: Int] = [
        "sunday": 0, "sun": 0, "monday": 1, "mon": 1, "tuesday": 2, "tue": 2, "tues": 2,
        "wednesday": 3, "wed": 3, "thursday": 4, "thu": 4, "thur": 4, "thurs": 4,
        "friday": 5, "fri": 5, "saturday": 6, "sat": 6,
    ]

    private static let months: [String: Int] = [
        "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
        "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
        "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
    ]

    /// A day of a month, `20 nov` or `nov 20`, with a year after it or not: without one, the latest
    /// such day that is not after today (a journal speaks of what was had).
    private mutating func readMonthDay(today: LocalDate) throws(TimeParseError) -> LocalDate? {
        guard position + 1 < tokens.count else { return nil }
        let (first, second) = (tokens[position], tokens[position + 1])
        let month: Int
        let day: Int
        if let named = TimeExpressionReader.months[second], let number = Int(first), first.allSatisfy(\.isASCII) {
            (month, day) = (named, number)
        } else if let named = TimeExpressionReader.months[first], let number = Int(second), second.allSatisfy(\.isASCII) {
            (month, day) = (named, number)
        } else {
            return nil
        }
        position += 2
        func exists(_ date: LocalDate) -> Bool {
            guard (1...31).contains(date.day), case .unique = LocalTime.resolve(date, hour: 12, minute: 0) else { return false }
            return true
        }
        if position < tokens.count, tokens[position].count == 4, tokens[position].allSatisfy({ $0.isASCII && $0.isNumber }),
            let given = Int(tokens[position])
        {
            position += 1
            let date = LocalDate(year: given, month: month, day: day)
            guard exists(date) else { throw fail("there is no such day", example: "20 nov 8:00, nov 20 2025 8am") }
            return date
        }
        // Without a year, the latest such day not after today: 29 feb is the last leap year's.
        for back in 0...8 {
            let date = LocalDate(year: today.year - back, month: month, day: day)
            if exists(date), date <= today { return date }
        }
        throw fail("there is no such day", example: "20 nov 8:00, nov 20 2025 8am")
    }

    private mutating func readDay() throws(TimeParseError) -> LocalDate? {
        guard position < tokens.count else { return nil }
        let calendarToday = LocalTime.components(now).date
        if let date = try readMonthDay(today: calendarToday) { return date }
        // A day alone counts from the person's day; one with a time of day ("yesterday 21:00") is a
        // calendar day, as the clock reads it.
        let wordsOfTheDay = tokens[position] == "last" ? 2 : 1
        let alone = dayAlone && position + wordsOfTheDay == tokens.count
        let today = alone ? dayAloneToday ?? calendarToday : calendarToday
        switch tokens[position] {
        case "today":
            position += 1
            return today
        case "yesterday":
            position += 1
            return today.adding(days: -1)
        case "last":
            guard position + 1 < tokens.count, let weekday = TimeExpressionReader.weekdays[tokens[position + 1]] else {
                throw fail("'last' needs a day of the week after it", example: "last monday 9:00")
            }
            position += 2
            // The most recent such day before today: on a Monday, "last monday" is a week ago.
            let back = (today.weekday - weekday + 7) % 7
            return today.adding(days: -(back == 0 ? 7 : back))
        case let word where TimeExpressionReader.weekdays[word] != nil && alone:
            // A bound of a range: since monday is since this week's, today's when it is one.
            position += 1
            return today.adding(days: -((today.weekday - TimeExpressionReader.weekdays[word]! + 7) % 7))
        case let word where TimeExpressionReader.weekdays[word] != nil:
            throw fail("'\(word)' alone could be this week's or last week's", example: "last \(word) 9:00")
        default:
            return nil
        }
    }

    // MARK: Times of day

    struct Clock {
        var hour: Int
        var minute: Int
        var second: Int
        var text: String
    }

    private mutating func readClock() throws(TimeParseError) -> Clock? {
        if position < tokens.count, tokens[position] == "at" { position += 1 }
        guard position < tokens.count else { return nil }
        let word = tokens[position]
        switch word {
        case "noon", "midday":
            position += 1
            return Clock(hour: 12, minute: 0, second: 0, text: word)
        case "midnight":
            position += 1
            return Clock(hour: 0, minute: 0, second: 0, text: word)
        default: break
        }
        guard let first = word.first, first.isASCII, first.isNumber else { return nil }
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            let hour = Int(parts[0]), parts.dropFirst().allSatisfy({ $0.count == 2 })
        else { throw fail("'\(word)' is not a time of day") }
        let minute = parts.count > 1 ? Int(parts[1]) : 0
        let second = parts.count > 2 ? Int(parts[2]) : 0
        guard let minute, let second, minute < 60, second < 60 else {
            throw fail("'\(word)' is not a time of day", example: "8:30, 21:05")
        }
        position += 1
        var meridiem: String?
        if position < tokens.count, ["am", "pm"].contains(tokens[position]) {
            meridiem = tokens[position]
            position += 1
        }
        if let meridiem {
            guard (1...12).contains(hour) else {
                throw fail("with am or pm the hour goes from 1 to 12", example: "8am, 12:30pm")
            }
            let afternoon = meridiem.hasPrefix("p")
            let hour24 = hour % 12 + (afternoon ? 12 : 0)
            return Clock(hour: hour24, minute: minute, second: second, text: "\(word)\(meridiem)")
        }
        guard parts.count > 1 else {
            // A bare "8" could be morning or evening; "20" is an hour of the evening, or a day.
            if (13...23).contains(hour) { throw fail("'\(word)' alone is not a time of day", example: "\(word):00, \(word) nov 8:00") }
            guard (1...12).contains(hour) else { throw fail("'\(word)' is not a time of day", example: "8:30, 21:05, 20 nov 8:00") }
            throw fail("'\(word)' alone could be morning or evening", example: "\(word)am, \(word)pm, \(word):00")
        }
        guard hour < 24 else { throw fail("'\(word)' is not a time of day", example: "8:30, 21:05") }
        return Clock(hour: hour, minute: minute, second: second, text: word)
    }

    private func resolve(_ date: LocalDate, _ clock: Clock) throws(TimeParseError) -> Timestamp {
        switch LocalTime.resolve(date, hour: clock.hour, minute: clock.minute, second: clock.second) {
        case .unique(let instant):
            return instant
        case .repeated(let earlier, let later):
            throw fail(
                "clocks went back that night, so \(clock.text) happened twice",
                example: "\(LocalTime.iso8601(earlier)) or \(LocalTime.iso8601(later))")
        case .skipped:
            // With an offset, the time names one instant: the offsets before and after the jump.
            let written = "\(date)T\(LocalTime.padded(clock.hour, 2)):\(LocalTime.padded(clock.minute, 2))"
            let offsets = LocalTime.offsetsAround(date).map { written + LocalTime.offsetText($0) }
            throw fail(
                "clocks skipped \(clock.text) that day (daylight saving)",
                example: offsets.isEmpty ? "an hour later" : offsets.joined(separator: " or "))
        case .invalid:
            throw fail("there is no such day")
        }
    }

    private func fail(_ reason: String, example: String = TimeExpression.examples) -> TimeParseError {
        TimeParseError(input: input, reason: reason, example: example)
    }
}

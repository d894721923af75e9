import Testing
import TestSupport

@testable import JournalKit

@Suite(.onTestThreads) struct TimeExpressionTests {
    /// Saturday 2026-11-21 at 15:30:20 local time, whatever zone the tests run in.
    let today = LocalDate(year: 2026, month: 11, day: 21)
    var now: Timestamp { local(today, 15, 30, 20) }
    var parser: TimeExpression { TimeExpression(now: now) }

    func local(_ date: LocalDate, _ hour: Int, _ minute: Int, _ second: Int = 0) -> Timestamp {
        guard case .unique(let instant) = LocalTime.resolve(date, hour: hour, minute: minute, second: second) else {
            Issue.record("\(date) \(hour):\(minute) is not a unique local time here")
            return Timestamp(milliseconds: 0)
        }
        return instant
    }

    @Test func clockTimesAreToday() throws {
        #expect(try parser.parse("08:30") == local(today, 8, 30))
        #expect(try parser.parse("8:05:09") == local(today, 8, 5, 9))
        #expect(try parser.parse("3pm") == local(today, 15, 0))
        #expect(try parser.parse("3:15 PM") == local(today, 15, 15))
        #expect(try parser.parse("12am") == local(today, 0, 0))
        #expect(try parser.parse("12:30pm") == local(today, 12, 30))
        #expect(try parser.parse("noon") == local(today, 12, 0))
        #expect(try parser.parse("midnight") == local(today, 0, 0))
        #expect(try parser.parse("at 9am") == local(today, 9, 0))
        #expect(try parser.parse("now") == now)
    }

    @Test func daysWithTimes() throws {
        let yesterday = today.adding(days: -1)
        #expect(try parser.parse("yesterday 21:00") == local(yesterday, 21, 0))
        #expect(try parser.parse("yesterday 3pm") == local(yesterday, 15, 0))
        #expect(try parser.parse("3pm yesterday") == local(yesterday, 15, 0))
        #expect(try parser.parse("today 9:00") == local(today, 9, 0))
        // 2026-11-21 is a Saturday: last monday is the 16th; last saturday a week ago.
        #expect(try parser.parse("last monday 9:00") == local(LocalDate(year: 2026, month: 11, day: 16), 9, 0))
        #expect(try parser.parse("last sat noon") == local(LocalDate(year: 2026, month: 11, day: 14), 12, 0))
        #expect(try parser.parse("2 days ago 8am") == local(LocalDate(year: 2026, month: 11, day: 19), 8, 0))
    }

    @Test func relativeTimes() throws {
        #expect(try parser.parse("30 min ago") == now - .seconds(30 * 60))
        #expect(try parser.parse("30min ago") == now - .seconds(30 * 60))
        #expect(try parser.parse("2h ago") == now - .seconds(2 * 3600))
        #expect(try parser.parse("1h30m ago") == now - .seconds(90 * 60))
        #expect(try parser.parse("an hour ago") == now - .seconds(3600))
        #expect(try parser.parse("45 seconds ago") == now - .seconds(45))
        #expect(try parser.parse("3 days ago") == local(LocalDate(year: 2026, month: 11, day: 18), 15, 30, 20))
        #expect(try parser.parse("1 week ago") == local(LocalDate(year: 2026, month: 11, day: 14), 15, 30, 20))
    }

    @Test func iso8601WithAndWithoutOffset() throws {
        #expect(try parser.parse("2026-11-21T08:30") == local(today, 8, 30))
        #expect(try parser.parse("2026-11-21 08:30:15") == local(today, 8, 30, 15))
        #expect(try parser.parse("2026-11-21T07:30:00Z") == Timestamp(milliseconds: 1_795_246_200_000))
        #expect(try parser.parse("2026-11-21T08:30:00+01:00") == Timestamp(milliseconds: 1_795_246_200_000))
        #expect(try parser.parse("2026-11-21T02:30:00.250-05:00") == Timestamp(milliseconds: 1_795_246_200_250))
        #expect(try parser.parse("2024-02-29T12:00Z") == Timestamp(milliseconds: 1_709_208_000_000))
    }

    @Test func formattedTimesParseBackExactly() throws {
        for instant in [now, now - .milliseconds(123_456_789), Timestamp(milliseconds: 1_709_208_000_001)] {
            #expect(try parser.parse(LocalTime.iso8601(instant)) == instant)
        }
    }

    @Test(arguments: [
        "", "tomorrow", "soon", "25:00", "8", "yesterday", "monday 9:00", "last 9:00", "13pm", "0am",
        "2026-02-30T10:00", "2026-11-21", "2026-11-21T08:60", "5 parsecs ago", "ago", "x min ago",
        "2026-11-21T08:30+25:00", "8:5", "1h ago 8am",
    ])
    func refusesWhatItCannotRead(input: String) {
        #expect(throws: TimeParseError.self) { _ = try parser.parse(input) }
    }

    /// A day of a month by its name, either way round, with a year or without: without one, the
    /// latest such day that is not after today.
    @Test func daysOfMonthsByName() throws {
        #expect(try parser.parse("20 nov 8:00") == local(LocalDate(year: 2026, month: 11, day: 20), 8, 0))
        #expect(try parser.parse("nov 20 8am") == local(LocalDate(year: 2026, month: 11, day: 20), 8, 0))
        #expect(try parser.parse("20 November 2025 8:00") == local(LocalDate(year: 2025, month: 11, day: 20), 8, 0))
        #expect(try parser.parse("21nov 9:00") == local(today, 9, 0))
        // December has not come yet this year: last December's.
        #expect(try parser.parse("24 dec 18:00") == local(LocalDate(year: 2025, month: 12, day: 24), 18, 0))
        let noDay = #expect(throws: TimeParseError.self) { _ = try parser.parse("31 feb 8:00") }
        #expect(noDay?.reason == "there is no such day")
    }

    /// A bound of a range takes a day alone, as the instant it starts (at the day start given).
    @Test func aBoundTakesADayAlone() throws {
        let midnight = ClockTime.midnight
        #expect(try parser.parseBound("yesterday", dayStart: midnight) == local(today.adding(days: -1), 0, 0))
        #expect(try parser.parseBound("today", dayStart: midnight) == local(today, 0, 0))
        // 2026-11-21 is a Saturday: monday is this week's, saturday today.
        #expect(try parser.parseBound("monday", dayStart: midnight) == local(LocalDate(year: 2026, month: 11, day: 16), 0, 0))
        #expect(try parser.parseBound("Sat", dayStart: midnight) == local(today, 0, 0))
        #expect(try parser.parseBound("last monday", dayStart: midnight) == local(LocalDate(year: 2026, month: 11, day: 16), 0, 0))
        #expect(try parser.parseBound("2026-11-19", dayStart: midnight) == local(LocalDate(year: 2026, month: 11, day: 19), 0, 0))
        #expect(try parser.parseBound("20 nov", dayStart: midnight) == local(LocalDate(year: 2026, month: 11, day: 20), 0, 0))
        let four = try #require(ClockTime(hour: 4, minute: 0))
        #expect(try parser.parseBound("yesterday", dayStart: four) == local(today.adding(days: -1), 4, 0))
        #expect(try parser.parseBound("10 min ago", dayStart: four) == now - .seconds(600))
        #expect(throws: TimeParseError.self) { _ = try parser.parseBound("2026-02-30", dayStart: midnight) }
        // At 01:30 on Saturday, with days starting at 04:00, the person's today is Friday; a time of
        // day is the calendar's still.
        let late = TimeExpression(now: local(today, 1, 30))
        let friday = today.adding(days: -1)
        #expect(try late.parseBound("today", dayStart: four) == local(friday, 4, 0))
        #expect(try late.parseBound("yesterday", dayStart: four) == local(friday.adding(days: -1), 4, 0))
        #expect(try late.parseBound("sat", dayStart: four) == local(today.adding(days: -7), 4, 0))
        #expect(try late.parseBound("yesterday 21:00", dayStart: four) == local(friday, 21, 0))
    }

    /// 29 february without a year is the last leap year's, as any day without one is the latest.
    @Test func aLeapDayWithoutAYearIsTheLastOne() throws {
        let march2027 = TimeExpression(now: local(LocalDate(year: 2027, month: 3, day: 10), 12, 0))
        #expect(try march2027.parse("29 feb 8:00") == local(LocalDate(year: 2024, month: 2, day: 29), 8, 0))
        let january2028 = TimeExpression(now: local(LocalDate(year: 2028, month: 1, day: 10), 12, 0))
        #expect(try january2028.parse("29 feb 8:00") == local(LocalDate(year: 2024, month: 2, day: 29), 8, 0))
        #expect(try january2028.parse("24 dec 8:00") == local(LocalDate(year: 2027, month: 12, day: 24), 8, 0))
    }

    /// What an error suggests is what was meant: an hour past 12 is not "20am".
    @Test func hintsSuggestWhatWasMeant() {
        let evening = #expect(throws: TimeParseError.self) { _ = try parser.parse("20") }
        #expect(evening?.example == "20:00, 20 nov 8:00")
        let morning = #expect(throws: TimeParseError.self) { _ = try parser.parse("8") }
        #expect(morning?.example == "8am, 8pm, 8:00")
    }

    @Test func refusesTheFutureBeyondFiveMinutesWithAnExample() throws {
        #expect(try parser.parse("15:35") == local(today, 15, 35))
        let error = #expect(throws: TimeParseError.self) { _ = try parser.parse("23:00") }
        #expect(error?.example == "'yesterday 23:00' for yesterday")
        #expect(throws: TimeParseError.self) { _ = try parser.parse("2027-01-01T00:00Z") }
        #expect(try parser.parse("23:00", allowFuture: true) == local(today, 23, 0))
    }
}

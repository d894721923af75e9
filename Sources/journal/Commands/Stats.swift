import ArgumentParser
import CommandLineSupport
import JournalKit

struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Caffeine per day over the last days, the average, what it came from, and days over the limit.",
        discussion: """
            --calendar draws the past 52 weeks as a calendar: a column per week, a row per weekday, each day \
            shaded by its total against the daily limit (· none, ░ up to a quarter, ▒ up to half, ▓ up to the \
            limit, █ over it).
            """)

    @Option(name: .long, help: "How many days, today included.")
    var days = 7

    @Flag(name: .long, help: "The past 52 weeks as a calendar of days.")
    var calendar = false

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (1...3660).contains(days) else { throw ValidationError("--days must be from 1 to 3660, such as --days 30.") }
        if calendar && days != 7 { throw ValidationError("--calendar shows the past 52 weeks; give it or --days, not both.") }
    }

    func run() async throws {
        let config = try ConfigFile.load()
        let clock = try global.clock()
        let store = try await global.openStore(clock: clock)
        let settings = config.inEffect(synced: try await store.syncedSettings())
        // Best effort: the view's day start is not worth failing the answer over.
        try? await store.keepDayStart(settings.dayStartsAt)
        let now = clock.now()
        let last = LocalTime.day(of: now, startingAt: settings.dayStartsAt)
        if calendar {
            let first = CalendarChart.firstDay(today: last)
            return show(try await store.dailyTotals(from: first, through: last, dayStartsAt: settings.dayStartsAt, now: now), settings: settings)
        }
        let first = last.adding(days: -(days - 1))
        let totals = try await store.dailyTotals(from: first, through: last, dayStartsAt: settings.dayStartsAt, now: now)
        let kinds = try await store.kindTotals(from: first, through: last, dayStartsAt: settings.dayStartsAt, now: now)
        let firstDrinkDay = try await store.firstDrinkDay(dayStartsAt: settings.dayStartsAt, now: now)
        let sum = totals.reduce(0) { $0 + $1.caffeineMg }
        let average = DailyAverage(totals: totals, firstDrinkDay: firstDrinkDay, limit: settings.dailyLimitMg)

        if output.json {
            Output.line(JSONValue.object([
                ("from", .string(first.description)), ("to", .string(last.description)),
                ("days", .array(totals.map { day in
                    .object([
                        ("date", .string(day.date.description)), ("caffeine_mg", .number(roundedToHundredths(day.caffeineMg))),
                        ("drinks", .number(Double(day.drinks))),
                    ])
                })),
                ("average_mg", .number(roundedToHundredths(average.mg))),
                ("average_days", .number(Double(average.days))),
                ("daily_limit_mg", .number(settings.dailyLimitMg)),
                ("days_over_limit", .number(Double(average.daysOverLimit))),
                ("drinks", .array(kinds.map { kind in
                    .object([
                        ("drink", .string(kind.kind)), ("caffeine_mg", .number(roundedToHundredths(kind.caffeineMg))),
                        ("count", .number(Double(kind.drinks))),
                        ("share", .number(sum > 0 ? (kind.caffeineMg / sum * 1000).rounded() / 1000 : 0)),
                    ])
                })),
            ]).prettyText)
            return
        }

        Output.paragraph("Last \(days) day\(days == 1 ? "" : "s") (\(first) to \(last)), daily limit \(formatMilligrams(settings.dailyLimitMg)) mg")
        // The bars take what the terminal leaves beside the day, the amount and the drinks (31
        // columns), up to 32; on a narrower one the drinks go, and the bars keep 8.
        let beside = 31
        let room = (Output.lineColumns ?? 80) - beside
        let showsDrinks = room >= 8
        let width = max(8, min(32, showsDrinks ? room : room + 11))
        let scale = max(totals.map(\.caffeineMg).max() ?? 0, settings.dailyLimitMg)
        let limitColumn = min(width - 1, Int((settings.dailyLimitMg / scale * Double(width)).rounded()))
        for day in totals {
            Output.line(bar(day, width: width, scale: scale, limitColumn: limitColumn, limit: settings.dailyLimitMg, drinks: showsDrinks))
        }
        Output.line("")
        Output.paragraph(Self.words(average, firstDrinkDay: firstDrinkDay))
        if !kinds.isEmpty, sum > 0 {
            let shares = kinds.map { "\(TerminalText.escaped($0.kind)) \(Int(($0.caffeineMg / sum * 100).rounded()))%" }
            Output.paragraph("From: " + shares.joined(separator: ", "), indent: "      ")
        }
    }

    /// "Average 201 mg a day; 1 of 7 days over the limit", over the days from the first drink on.
    static func words(_ average: DailyAverage, firstDrinkDay: LocalDate?) -> String {
        guard let firstDrinkDay, average.days > 0 else { return "No drinks yet: the average starts at the first." }
        let days = average.days == 1 ? "1 day" : "\(average.days) days"
        let over = "\(average.daysOverLimit) of \(days) over the limit"
        guard average.startsAtFirstDrink else { return "Average \(formatMilligrams(average.mg.rounded())) mg a day; \(over)" }
        return "Average \(formatMilligrams(average.mg.rounded())) mg a day over the \(days) since the first drink (\(firstDrinkDay)); \(over)"
    }

    /// The calendar of `totals` (from a Monday through today), or its numbers in JSON.
    private func show(_ totals: [DayTotal], settings: JournalSettings) {
        let limit = settings.dailyLimitMg
        let withDrinks = totals.filter { $0.drinks > 0 }.count
        let over = totals.filter { $0.caffeineMg > limit }.count
        guard let first = totals.first?.date, let last = totals.last?.date else { return }
        if output.json {
            Output.line(JSONValue.object([
                ("from", .string(first.description)), ("to", .string(last.description)),
                ("daily_limit_mg", .number(limit)),
                ("days", .array(totals.map { day in
                    .object([
                        ("date", .string(day.date.description)), ("caffeine_mg", .number(roundedToHundredths(day.caffeineMg))),
                        ("drinks", .number(Double(day.drinks))), ("shade", .string(CalendarChart.Shade(mg: day.caffeineMg, limit: limit).name)),
                    ])
                })),
                ("days_with_drinks", .number(Double(withDrinks))),
                ("days_over_limit", .number(Double(over))),
            ]).prettyText)
            return
        }
        // As many of the weeks as the terminal has columns for beside the weekday names: the latest.
        let chart = CalendarChart(totals: totals, limit: limit, columns: Output.lineColumns)
        let shown = chart.weeksShown
        Output.paragraph(shown < CalendarChart.weeks
            ? "The past \(shown) weeks (\(chart.firstShown) to \(last)), daily limit \(formatMilligrams(limit)) mg; a terminal "
                + "\(CalendarChart.weeks + CalendarChart.labelColumns + 1) columns wide shows 52 weeks"
            : "The past 52 weeks (\(first) to \(last)), daily limit \(formatMilligrams(limit)) mg")
        Output.line("")
        for line in chart.lines() { Output.line(line) }
        Output.line("")
        var summary = "\(withDrinks) day\(withDrinks == 1 ? "" : "s") with caffeine, \(over) over the limit"
        if let most = totals.max(by: { $0.caffeineMg < $1.caffeineMg }), most.caffeineMg > 0 {
            summary += "; the most, \(formatMilligrams(most.caffeineMg)) mg on \(Self.weekday(most.date)) \(most.date)"
        }
        Output.paragraph(summary)
    }

    /// `Sat 11-21  ██████████▌     │   319 mg  4 drinks`
    private func bar(_ day: DayTotal, width: Int, scale: Double, limitColumn: Int, limit: Double, drinks shown: Bool) -> String {
        let eighths = Array(" ▏▎▍▌▋▊▉")
        let cells = day.caffeineMg / scale * Double(width)
        let full = Int(cells.rounded(.down))
        var text = String(repeating: "█", count: full)
        let part = Int(((cells - Double(full)) * 8).rounded(.down))
        if part > 0, full < width { text.append(eighths[part]) }
        var padded = Array(text)
        while padded.count < width { padded.append(padded.count == limitColumn ? "│" : " ") }
        let barText = String(padded)
        let coloured = day.caffeineMg > limit ? Output.red(barText) : Output.cyan(barText)
        let mg = formatMilligrams(day.caffeineMg)
        let drinks = day.drinks == 0 || !shown ? "" : "  \(day.drinks) drink\(day.drinks == 1 ? "" : "s")"
        let label = "\(Self.weekday(day.date)) \(day.date.description.dropFirst(5))"
        return "\(label)  \(coloured) \(String(repeating: " ", count: max(0, 5 - mg.count)))\(mg) mg\(drinks)"
    }

    static func weekday(_ date: LocalDate) -> String {
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        return names[date.weekday]
    }

}

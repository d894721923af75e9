import ArgumentParser
import CommandLineSupport
import JournalKit

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "How much caffeine is in you now, what is left of today's limit, and when you can sleep.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    /// What this command line asks for.
    var request: StatusRequest { StatusRequest(db: global.db, json: output.json) }

    func run() throws { try request.run() }
}

/// `journal status`, as either parser read it (`FastPath`, or swift-argument-parser through `Status`).
struct StatusRequest: Equatable {
    var db: String?
    var json = false

    func run() throws {
        let settings = try ConfigFile.load().settings
        let status = try JournalAccess.withStore(db: db, clock: try JournalAccess.clock()) { store in
            try store.status(settings: settings)
        }
        let remaining = max(0, settings.dailyLimitMg - status.todayMg)
        if json {
            Output.line(JSONValue.object([
                ("at", .string(LocalTime.iso8601(status.at))),
                ("current_mg", .number(roundedToHundredths(status.currentMg))),
                ("today_mg", .number(roundedToHundredths(status.todayMg))),
                ("cups_today", .number(roundedToHundredths(status.cupsToday))),
                ("drinks_today", .number(Double(status.drinksToday))),
                ("daily_limit_mg", .number(settings.dailyLimitMg)),
                ("remaining_today_mg", .number(roundedToHundredths(remaining))),
                ("sleep_threshold_mg", .number(settings.sleepThresholdMg)),
                ("sleep_ready_at", status.sleepReadyAt.map { .string(LocalTime.iso8601($0)) } ?? .null),
                ("half_life_hours", .number(settings.halfLifeHours)),
            ]).prettyText)
            return
        }
        let drinks = status.drinksToday == 1 ? "1 drink" : "\(status.drinksToday) drinks"
        Output.line("Caffeine now  " + Output.bold("\(formatMilligrams(status.currentMg)) mg"))
        Output.line("Today         \(formatMilligrams(status.todayMg)) mg in \(drinks) (\(cups(status.cupsToday)) cups)")
        let over = status.todayMg - settings.dailyLimitMg
        Output.line("Limit         " + (over > 0
            ? Output.red("\(formatMilligrams(over)) mg over") + " your \(formatMilligrams(settings.dailyLimitMg)) mg"
            : "\(formatMilligrams(remaining)) mg left of \(formatMilligrams(settings.dailyLimitMg)) mg"))
        let sleep = status.sleepReadyAt.map { "from \(when($0, now: status.at))" } ?? "now"
        Output.line("Sleep-ready   \(sleep) (under \(formatMilligrams(settings.sleepThresholdMg)) mg, half-life \(formatMilligrams(settings.halfLifeHours)) h)")
        if Output.isTerminal {
            Output.line("")
            for line in LevelChart(status: status, model: settings.model, threshold: settings.sleepThresholdMg).lines() {
                Output.line(line)
            }
        }
    }

    /// "22:40", or "tomorrow 01:10" when it is after today.
    private func when(_ instant: Timestamp, now: Timestamp) -> String {
        let day = LocalTime.components(instant).date
        let today = LocalTime.components(now).date
        if day == today { return LocalTime.clockTime(instant) }
        if day == today.adding(days: 1) { return "tomorrow " + LocalTime.clockTime(instant) }
        return LocalTime.display(instant)
    }


    private func cups(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

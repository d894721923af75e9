import ArgumentParser
import CommandLineSupport
import JournalKit

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "How much caffeine is in you now, what is left of today's limit, and when you can sleep.",
        discussion: """
            --format prints one line from the fields of --json, for a shell prompt or a status bar: \
            '{current_mg:.0f} mg' gives "177 mg"; {field:.Nf} rounds a number to N decimals, {{ and }} are braces. \
            state is over-limit, curfew (with a bedtime: no room left), awake (above the sleep threshold) or \
            sleep-ready.

            With a bedtime (the bedtime setting, or --bedtime 23:00), status also says the level at bedtime, the room \
            left (the most caffeine you can have now and still be within today's limit and under the sleep \
            threshold at bedtime) and the latest time a 96 mg cup still lets you sleep. For 8 hours after bedtime, \
            it is past bedtime and no room is left; then it speaks of the next night.
            """)

    @Option(name: .long, help: ArgumentHelp("One line from the fields of --json: '{current_mg:.0f} mg'.", valueName: "template"))
    var format: String?

    @Option(name: .long, help: ArgumentHelp("Bedtime for this once, such as 23:00 or 11pm (default: the bedtime setting).", valueName: "time"))
    var bedtime: String?

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if format != nil && output.json { throw ValidationError("--format and --json both say how to print; give one.") }
    }

    /// What this command line asks for.
    var request: StatusRequest { StatusRequest(format: format, bedtime: bedtime, db: global.db, json: output.json) }

    func run() throws { try request.run() }
}

/// `journal status`, as either parser read it (`FastPath`, or swift-argument-parser through `Status`).
struct StatusRequest: Equatable {
    var format: String?
    var bedtime: String?
    var db: String?
    var json = false

    /// The fields of `--json` and `--format`, in order.
    static let fields = [
        "at", "current_mg", "current_mg_per_l", "peaks_at", "today_mg", "cups_today", "drinks_today", "daily_limit_mg", "remaining_today_mg", "over_limit",
        "sleep_threshold_mg", "sleep_ready_at", "half_life_hours", "model", "state", "bedtime", "past_bedtime", "bedtime_mg",
        "asleep_at_bedtime", "room_mg", "room_bound", "last_cup_by", "sync_state", "last_sync_age_s",
    ]

    func run() throws {
        let template = try format.map { try FieldTemplate($0, fields: Self.fields) }
        let config = try ConfigFile.load()
        let bedtime = try bedtime.map { try ClockTime.given($0) }
        let plain = template == nil && !json
        let clock = try JournalAccess.clock()
        // A journal not made yet is one without drinks, and not joined: status reads, it makes no file.
        guard FileSystem.exists(try JournalPaths.database(explicit: db)) else {
            var settings = config.inEffect(synced: [])
            if let bedtime { settings.bedtime = bedtime }
            let status = CaffeineStatus(window: [], settings: settings, at: clock.now())
            if plain { return print(status, settings: settings, lastDrink: nil, noDrinks: true) }
            return show(status, settings: settings, sync: (.notJoined, nil), template: template)
        }
        // How sync stands is read only for the fields that show it, the last drink only for the words
        // (and, when none still counts, to tell a journal without drinks).
        let (settings, status, sync, lastDrink) = try JournalAccess.withStore(db: db, clock: clock) { store in
            var settings = config.inEffect(synced: try store.syncedSettings())
            if let bedtime { settings.bedtime = bedtime }
            // Best effort: the view's day start is not worth failing the answer over.
            try? store.keepDayStart(settings.dayStartsAt)
            let status = try store.status(settings: settings)
            return (
                settings, status, plain ? nil : try store.syncHealth(),
                plain && (status.bedtime != nil || status.intakes.isEmpty) ? try store.lastDrink(before: status.at) : nil
            )
        }
        // The room is a beverage's: by the personal model a slow drink's tail is longer, so the room is
        // not said in slow drinks.
        let wordsDrink = lastDrink.flatMap { status.model.kind == .personal && $0.form == .slow ? nil : ($0.kind, $0.caffeineMg) }
        guard let sync else { return print(status, settings: settings, lastDrink: wordsDrink, noDrinks: status.intakes.isEmpty && status.futureDrinks == nil && lastDrink == nil) }
        show(status, settings: settings, sync: sync, template: template)
    }

    /// `--json`, or the line of `--format`'s template.
    private func show(_ status: CaffeineStatus, settings: JournalSettings, sync: (health: SyncHealth, lastSucceededAt: Timestamp?), template: FieldTemplate?) {
        let values = Self.values(status, settings: settings) + Self.values(sync, at: status.at)
        if let template { return Output.line(template.render(values)) }
        Output.line(JSONValue.object(values).prettyText)
    }

    /// The sync fields, for `--json` and `--format`: how sync stands, and how many seconds ago a sync
    /// last succeeded (null when none has).
    static func values(_ sync: (health: SyncHealth, lastSucceededAt: Timestamp?), at now: Timestamp) -> [(String, JSONValue)] {
        [
            ("sync_state", .string(sync.health.rawValue)),
            ("last_sync_age_s", sync.lastSucceededAt.map { .number(Double(max(0, (now.milliseconds - $0.milliseconds) / 1000))) } ?? .null),
        ]
    }

    /// The fields, for `--json` and `--format`.
    static func values(_ status: CaffeineStatus, settings: JournalSettings) -> [(String, JSONValue)] {
        let remaining = max(0, settings.dailyLimitMg - status.todayMg)
        let over = status.todayMg > settings.dailyLimitMg
        let (night, room) = (status.bedtime, status.room)
        return [
            ("at", .string(LocalTime.iso8601(status.at))),
            ("current_mg", .number(roundedToHundredths(status.currentMg))),
            ("current_mg_per_l", status.currentMgPerLitre.map { .number(roundedToHundredths($0)) } ?? .null),
            ("peaks_at", status.peaksAt.map { .string(LocalTime.iso8601($0)) } ?? .null),
            ("today_mg", .number(roundedToHundredths(status.todayMg))),
            ("cups_today", .number(roundedToHundredths(status.cupsToday))),
            ("drinks_today", .number(Double(status.drinksToday))),
            ("daily_limit_mg", .number(settings.dailyLimitMg)),
            ("remaining_today_mg", .number(roundedToHundredths(remaining))),
            ("over_limit", .bool(over)),
            ("sleep_threshold_mg", .number(settings.sleepThresholdMg)),
            ("sleep_ready_at", status.sleepReadyAt.map { .string(LocalTime.iso8601($0)) } ?? .null),
            ("half_life_hours", .number(roundedToHundredths(status.model.halfLifeHours))),
            ("model", .string(status.model.kind.rawValue)),
            ("state", .string(CaffeineState(status, settings: settings).rawValue)),
            ("bedtime", night.map { .string(LocalTime.iso8601($0.bedtime)) } ?? .null),
            ("past_bedtime", night.map { .bool($0.isPast) } ?? .null),
            ("bedtime_mg", night.map { .number(roundedToHundredths($0.levelMg)) } ?? .null),
            ("asleep_at_bedtime", night.map { .bool($0.levelMg < settings.sleepThresholdMg) } ?? .null),
            ("room_mg", room.map { .number($0.mg) } ?? .null),
            ("room_bound", room.map { .string($0.bound.rawValue) } ?? .null),
            ("last_cup_by", room.map { $0.lastCupBy.map { .string(LocalTime.iso8601($0)) } ?? .null } ?? .null),
        ]
    }

    /// The words, and on a terminal the chart; `noDrinks` when the journal has none (by now): then no
    /// chart of a level that was never anything, and the command that adds one.
    private func print(_ status: CaffeineStatus, settings: JournalSettings, lastDrink: (kind: String, caffeineMg: Double)?, noDrinks: Bool) {
        let remaining = max(0, settings.dailyLimitMg - status.todayMg)
        let drinks = status.drinksToday == 1 ? "1 drink" : "\(status.drinksToday) drinks"
        let perLitre = status.currentMgPerLitre.map { " (\(formatMilligrams($0)) mg/L)" } ?? ""
        let peak = status.peaksAt.map { ", rising: peaks at \(when($0, now: status.at))" } ?? ""
        Output.labelled("Caffeine now  " + Output.bold("\(formatMilligrams(status.currentMg)) mg") + perLitre + peak)
        Output.labelled("Today         \(formatMilligrams(status.todayMg)) mg in \(drinks) (\(cups(status.cupsToday)) cups)")
        let over = status.todayMg - settings.dailyLimitMg
        Output.labelled("Limit         " + (over > 0
            ? Output.red("\(formatMilligrams(over)) mg over") + " your \(formatMilligrams(settings.dailyLimitMg)) mg"
            : "\(formatMilligrams(remaining)) mg left of \(formatMilligrams(settings.dailyLimitMg)) mg"))
        let sleep = status.sleepReadyAt.map { "from \(when($0, now: status.at))" } ?? "now"
        let model = status.model.kind == .personal ? "personal model, " : ""
        Output.labelled(
            "Sleep-ready   \(sleep) (under \(formatMilligrams(settings.sleepThresholdMg)) mg, \(model)half-life \(formatExactly(roundedToHundredths(status.model.halfLifeHours))) h)")
        if let night = status.bedtime {
            let threshold = formatMilligrams(settings.sleepThresholdMg)
            let level = night.isPast
                ? "\(when(night.bedtime, now: status.at)), passed: \(formatMilligrams(night.levelMg)) mg then"
                : status.model.kind == .personal
                    ? "up to \(formatMilligrams(night.levelMg)) mg from \(when(night.bedtime, now: status.at))"
                    : "\(formatMilligrams(night.levelMg)) mg at \(when(night.bedtime, now: status.at))"
            Output.labelled("Bedtime       " + (night.levelMg < settings.sleepThresholdMg
                ? "\(level), under \(threshold) mg"
                : Output.red("\(level), over \(threshold) mg")))
            if let room = status.room { print(room, night: night, lastDrink: lastDrink, now: status.at) }
        }
        if let future = status.futureDrinks {
            // Left out of every number above; said, so that a drink dated wrong is seen to be there.
            let first = when(future.first, now: status.at)
            Output.labelled("Left out      " + (future.count == 1
                ? "1 drink dated in the future, at \(first)"
                : "\(future.count) drinks dated in the future, the first at \(first)") + " (see journal list --since now)")
        }
        if noDrinks {
            Output.line("")
            return Output.paragraph("No drinks yet: journal add espresso records one (journal drinks lists them).")
        }
        // Without a drink that still counts, the chart would be a flat line at 0.
        if Output.isTerminal, !status.intakes.isEmpty {
            Output.line("")
            if let chart = LevelChart(status: status, threshold: settings.sleepThresholdMg, lineColumns: Output.lineColumns) {
                for line in chart.lines() { Output.line(line) }
            } else {
                Output.paragraph("(The chart of the level needs a terminal of \(LevelChart.narrowest + 18) columns.)")
            }
        }
    }

    /// "Room left" and "Last cup by": how much more, what holds it to that, said in terms of the last
    /// drink; the last cup only while there is room for one.
    private func print(_ room: RoomLeft, night: BedtimeForecast, lastDrink: (kind: String, caffeineMg: Double)?, now: Timestamp) {
        let none = Output.red("none")
        // Whole milligrams, down: "room for 59 mg" must not be a fraction more than there is.
        let amount = "\(formatMilligrams(room.mg.rounded(.down))) mg"
        Output.labelled("Room left     " + {
            switch room.bound {
            case .pastBedtime: return none + ": it is past your \(LocalTime.clockTime(night.bedtime)) bedtime"
            case .bedtime where night.isCurfew: return none + ": nothing with caffeine now lets you sleep then"
            case .dailyLimit where room.mg <= 0: return none + ": today's limit is used up"
            case .bedtime: return amount + RoomWords.drinks(room.mg, lastDrink: lastDrink)
            case .dailyLimit: return amount + " (today's limit)" + RoomWords.drinks(room.mg, lastDrink: lastDrink)
            }
        }())
        guard !night.isCurfew else { return }
        let cup = formatMilligrams(CaffeineModel.milligramsPerCup)
        Output.labelled("Last cup by   " + {
            if let by = room.lastCupBy { return "\(when(by, now: now)) (a \(cup) mg cup)" }
            if night.lastCupBy != nil { return "none today: your limit leaves less than a \(cup) mg cup" }
            return "too late for a \(cup) mg cup"
        }())
    }

    /// "22:40", or "tomorrow 01:10" when it is after today, "yesterday 23:00" before it.
    private func when(_ instant: Timestamp, now: Timestamp) -> String {
        let day = LocalTime.components(instant).date
        let today = LocalTime.components(now).date
        if day == today { return LocalTime.clockTime(instant) }
        if day == today.adding(days: 1) { return "tomorrow " + LocalTime.clockTime(instant) }
        if day == today.adding(days: -1) { return "yesterday " + LocalTime.clockTime(instant) }
        return LocalTime.display(instant)
    }

    private func cups(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

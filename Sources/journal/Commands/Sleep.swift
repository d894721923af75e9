import ArgumentParser
import CommandLineSupport
import JournalKit

struct Sleep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep",
        abstract: "What your nights show: each night with the caffeine you went to bed with, and the nights grouped by it.",
        discussion: """
            Nights come from journal import --from apple-health or --from sleep-csv. Each night's caffeine at \
            lights-out is by the model in effect (see journal profile). The nights are grouped by it: under half \
            your sleep threshold, from half of it up to it, and from it up (a group holds from its lower bound up \
            to but not including its upper). For each group, the median time to fall asleep and the median \
            sleep; then how much longer the highest group took to fall asleep than the lowest, with a bootstrap \
            95% interval (\(SleepReport.resamples) resamples, the same for the same nights), once each of the two \
            has \(SleepReport.nightsPerGroup) nights. When the interval is all above no difference, it suggests \
            a sleep threshold: the lowest group's upper bound. It compares nights; it cannot tell what caused \
            a difference.
            """)

    @Option(name: .long, help: "How many days back, today included.")
    var days = 30

    @Flag(name: .long, help: "Every night the journal holds.")
    var all = false

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (1...36600).contains(days) else { throw ValidationError("--days must be from 1 to 36600, such as --days 90.") }
        if all && days != 30 { throw ValidationError("--all takes every night; give it or --days, not both.") }
    }

    func run() async throws {
        let config = try ConfigFile.load()
        let clock = try global.clock()
        let store = try await global.openStore(clock: clock)
        let settings = config.inEffect(synced: try await store.syncedSettings())
        let today = LocalTime.components(clock.now()).date
        let first = all ? nil : today.adding(days: -(days - 1))
        let nights = try await store.nights(from: first, through: today)
        let model = settings.model
        var intakes: [CaffeineIntake] = []
        // By lights-out, not date: a night synced from another time zone may be dated apart from its instant.
        if let earliest = nights.map(\.inBedAt).min(), let latest = nights.map(\.inBedAt).max() {
            intakes = try await store.intakes(after: earliest - model.negligibleAfter, through: latest)
        }
        let report = SleepReport(nights: nights, intakes: intakes, model: model, thresholdMg: settings.sleepThresholdMg)
        if output.json { return Output.line(Self.json(report, model: model).prettyText) }
        print(report, settings: settings, from: first)
    }

    static func json(_ report: SleepReport, model: CaffeineModel) -> JSONValue {
        func time(_ instant: Timestamp?) -> JSONValue { instant.map { .string(LocalTime.iso8601($0)) } ?? .null }
        func number(_ value: Double?) -> JSONValue { value.map { .number(roundedToHundredths($0)) } ?? .null }
        return .object([
            ("model", .string(model.kind.rawValue)),
            ("nights", .array(report.rows.map { row in
                let night = row.night
                return .object([
                    ("night", .string(night.date.description)), ("in_bed_at", time(night.lightsOutKnown ? night.inBedAt : nil)), ("asleep_at", time(night.asleepAt)),
                    ("woke_at", time(night.wokeAt)), ("latency_min", number(night.latencyMinutes)), ("asleep_min", number(night.asleepMinutes)),
                    ("awakenings", .number(Double(night.awakenings))), ("caffeine_at_lights_out_mg", number(row.caffeineAtLightsOutMg)),
                    ("last_drink_at", time(row.lastDrinkAt)), ("source", .string(night.source)),
                ])
            })),
            ("groups", .array(report.groups.map { group in
                .object([
                    ("label", .string(group.label)), ("from_mg", .number(group.fromMg)), ("to_mg", group.toMg.map { .number($0) } ?? .null),
                    ("nights", .number(Double(group.nights))), ("nights_with_latency", .number(Double(group.nightsWithLatency))),
                    ("median_latency_min", number(group.medianLatencyMinutes)),
                    ("median_asleep_min", number(group.medianAsleepMinutes)),
                ])
            })),
            ("difference", report.difference.map { difference in
                .object([("latency_min", number(difference.latencyMinutes)), ("low", number(difference.low)), ("high", number(difference.high))])
            } ?? .null),
            ("suggested_threshold_mg", number(report.suggestedThresholdMg)),
            ("nights_needed", report.nightsNeeded.map { .number(Double($0)) } ?? .null),
        ])
    }

    private func print(_ report: SleepReport, settings: JournalSettings, from first: LocalDate?) {
        guard !report.rows.isEmpty else {
            return Output.paragraph(
                "No nights \(first.map { "since \($0)" } ?? "in the journal"): import them with journal import --from apple-health "
                    + "export.zip, or --from sleep-csv FILE (start,end,stage).")
        }
        let model = settings.model.kind == .personal ? "the personal model" : "Coffee Tracker's model"
        Output.paragraph("\(report.rows.count) night\(report.rows.count == 1 ? "" : "s")\(first.map { " since \($0)" } ?? ""), caffeine at lights-out by \(model):")
        let rows = report.rows.map { row -> [String] in
            let night = row.night
            return [
                night.date.description, night.lightsOutKnown ? LocalTime.clockTime(night.inBedAt) : Self.unknown, LocalTime.clockTime(night.asleepAt),
                night.latencyMinutes.map(Self.minutes) ?? Self.unknown,
                Self.duration(night.asleepMinutes), String(night.awakenings), "\(formatMilligrams(row.caffeineAtLightsOutMg)) mg",
                row.lastDrinkAt.map { Self.when($0, before: night.inBedAt) } ?? "none", TerminalText.escaped(night.source),
            ]
        }
        let header = ["NIGHT", "IN BED", "ASLEEP", "TO SLEEP", "SLEPT", "AWAKE", "CAFFEINE", "LAST DRINK", "FROM"]
        // On a terminal too narrow for every column, the caffeine (the point of the view) and what it
        // is compared with stay, and the source, wrapped whole; the times of the night go (--json has them).
        if let columns = Output.lineColumns, columns < Self.fullTableColumns {
            let kept = [0, 6, 3, 4, 8]
            Output.line(Output.table(kept.map { header[$0] }, rows.map { row in kept.map { row[$0] } }))
        } else {
            Output.line(Output.table(header, rows))
        }
        Output.line("")
        Output.paragraph("By caffeine at lights-out (your sleep threshold: \(formatMilligrams(settings.sleepThresholdMg)) mg):")
        Output.line(Output.table(
            ["CAFFEINE", "NIGHTS", "TO SLEEP", "SLEPT"],
            report.groups.map { group in
                [group.label, String(group.nights), group.medianLatencyMinutes.map(Self.minutes) ?? Self.unknown,
                 group.medianAsleepMinutes.map(Self.duration) ?? Self.unknown]
            }))
        Output.line("")
        let unknown = report.rows.filter { !$0.night.lightsOutKnown }.count
        if unknown > 0 {
            Output.paragraph(
                "\(unknown == 1 ? "1 night has" : "\(unknown) nights have") no lights-out of \(unknown == 1 ? "its" : "their") own (no in-bed "
                    + "sample): \(unknown == 1 ? "its" : "their") time to fall asleep is unknown (\(Self.unknown)) and left out of the "
                    + "medians and the difference.")
        }
        let (lowest, highest) = (report.groups[0], report.groups[report.groups.count - 1])
        if let difference = report.difference {
            let more = difference.latencyMinutes >= 0
            // The nights the difference is of: those with a time to fall asleep.
            Output.paragraph(
                "\(Self.at(highest).sentenceCased) you took \(Self.minutes(abs(difference.latencyMinutes))) \(more ? "longer" : "less") to fall asleep "
                    + "than \(Self.at(lowest)) (medians; 95% interval \(Self.signed(difference.low)) to \(Self.signed(difference.high)) min, "
                    + "\(highest.nightsWithLatency) and \(lowest.nightsWithLatency) nights).")
        } else if let needed = report.nightsNeeded {
            var parts: [String] = []
            for group in [lowest, highest] where group.nightsWithLatency < SleepReport.nightsPerGroup {
                parts.append("\(SleepReport.nightsPerGroup - group.nightsWithLatency) more \(Self.at(group))")
            }
            Output.paragraph("To compare, it needs \(needed) more night\(needed == 1 ? "" : "s"): \(parts.joined(separator: " and ")).")
        }
        Output.paragraph("This compares your nights; it cannot tell what caused a difference.")
        if let suggested = report.suggestedThresholdMg, suggested != settings.sleepThresholdMg {
            Output.paragraph(
                "Your nights point to a sleep threshold of \(formatMilligrams(suggested)) mg: journal config sleep_threshold_mg "
                    + "\(formatMilligrams(suggested)) makes status and the bedtime forecast use it.")
        }
        // The scatter needs nights with a time to fall asleep.
        if Output.isTerminal, report.rows.filter({ $0.night.latencyMinutes != nil }).count >= 2 {
            Output.line("")
            for line in SleepScatter(rows: report.rows, thresholdMg: settings.sleepThresholdMg, columns: Output.lineColumns).lines() { Output.line(line) }
        }
    }

    /// The columns the table of nights takes with all its columns (a source's name aside).
    static let fullTableColumns = 80

    /// What a night cannot tell, in a table.
    static let unknown = "–"

    /// "under 25 mg", "at 50 mg and over": a group in a sentence.
    static func at(_ group: SleepReport.Group) -> String { group.fromMg == 0 ? group.label : "at " + group.label }

    /// "12 min", "1 h 05".
    static func minutes(_ value: Double) -> String {
        let whole = Int(value.rounded())
        return whole < 60 ? "\(whole) min" : "\(whole / 60) h \(whole % 60 < 10 ? "0" : "")\(whole % 60)"
    }

    /// "7 h 12".
    static func duration(_ minutes: Double) -> String {
        let whole = Int(minutes.rounded())
        return "\(whole / 60) h \(whole % 60 < 10 ? "0" : "")\(whole % 60)"
    }

    static func signed(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded > 0 ? "+\(formatMilligrams(rounded))" : formatMilligrams(rounded)
    }

    /// "18:40" on the day of lights-out, else its date too ("11-20 23:30"): a time alone later than
    /// lights-out would read as after it.
    static func when(_ drink: Timestamp, before lightsOut: Timestamp) -> String {
        let day = LocalTime.components(drink).date
        if day == LocalTime.components(lightsOut).date { return LocalTime.clockTime(drink) }
        return "\(LocalTime.padded(day.month, 2))-\(LocalTime.padded(day.day, 2)) \(LocalTime.clockTime(drink))"
    }
}

import ArgumentParser
import CommandLineSupport
import JournalKit

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Record a drink.",
        discussion: """
            TIME may be 08:30, 3pm, noon, yesterday 21:00, 30 min ago, 2 days ago 8am, last monday 9:00 or \
            ISO 8601 (2026-11-21T08:30, with or without an offset). Default: now.
            """)

    @Argument(
        help: ArgumentHelp("A drink from `journal drinks`, such as espresso or \"double espresso\".", valueName: "drink"),
        completion: .custom(CompletionWords.drinks))
    var drink: [String]

    @OptionGroup var fields: DrinkFieldOptions
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    /// What this command line asks for.
    var request: AddRequest {
        AddRequest(drink: drink, mg: fields.mg, at: fields.at, note: fields.note, db: global.db, json: output.json)
    }

    func run() throws { try request.run() }
}

/// `journal add`, as either parser read it (`FastPath`, or swift-argument-parser through `Add`).
struct AddRequest: Equatable {
    var drink: [String]
    var mg: String?
    var at: String?
    var note: String?
    var db: String?
    var json = false

    func run() throws {
        let name = drink.concatenated(separator: " ")
        // Everything that can be checked without the journal is, before it is opened (or made).
        let mg = try mg.map { try CaffeineDose.parse($0) }
        let clock = try JournalAccess.clock()
        let consumedAt = try at.map { try TimeExpression(now: clock.now()).parse($0) } ?? clock.now()
        // A settings file that cannot be read does not hold up a drink: it is recorded, and the bedtime
        // check waits for the file's repair. (The day's start for the view is kept by status and stats:
        // a query more here would cost add a few percent of its instructions.)
        let config: ConfigFile?
        var unreadSettings: (any Error)?
        do { config = try ConfigFile.load() } catch {
            config = nil
            unreadSettings = error
        }
        // A struct, not a tuple: a tuple type is looked up by its mangled name at its first use.
        let at = at
        let outcome = try JournalAccess.withStore(db: db, clock: clock) { store -> AddOutcome in
            let kind: DrinkKind
            var consumedAt = consumedAt
            do { kind = try KindLookup.resolve(name, in: store) } catch let unknown as UnknownDrinkError {
                // "espresso 8:00": without --at, words after a drink's name that read as a time are its time.
                guard at == nil else { throw unknown }
                let found = TrailingTime.cuts(of: name).lazy.compactMap { cut -> (DrinkKind, Timestamp)? in
                    guard let kind = try? KindLookup.resolve(cut.drink, in: store),
                          let time = try? TimeExpression(now: consumedAt).parse(cut.time) else { return nil }
                    return (kind, time)
                }.first
                guard let found else { throw unknown }
                kind = found.0
                consumedAt = found.1
            }
            let added = try store.add(NewDrink(kind: kind.name, caffeineMg: mg ?? kind.caffeineMg, consumedAt: consumedAt, note: note))
            // The drink is recorded: what follows must not fail the command, and invite it again.
            let stopped = json ? nil : try? store.syncStoppedNotice()
            guard let config, !json, let settings = try? config.inEffect(synced: store.syncedSettings()) else {
                return AddOutcome(drink: added, night: nil, settings: nil, syncStopped: stopped)
            }
            // The night is read only when there is a bedtime to speak of.
            guard settings.bedtime != nil else { return AddOutcome(drink: added, night: nil, settings: settings, syncStopped: stopped) }
            return AddOutcome(drink: added, night: try? store.status(settings: settings), settings: settings, syncStopped: stopped)
        }
        let (added, night, settings) = (outcome.drink, outcome.night, outcome.settings)
        if let unreadSettings {
            Output.error("journal: the drink is recorded; the settings were not read (\(TerminalText.escaped(failureClause(unreadSettings))))")
        }
        if json { return Output.line(DrinkExchange.json(added).prettyText) }
        Output.line("Added " + Output.describe(added))
        if let night, let settings, let warning = Self.bedtimeWarning(after: night, added: added, settings: settings) { Output.line(warning) }
        if let stopped = outcome.syncStopped { Output.line("This journal no longer syncs: " + TerminalText.escaped(stopped) + ". The drink is kept here.") }
    }

    /// "This keeps you above 50 mg until 03:28, past your 23:00 bedtime (it was 00:53).", each time
    /// the drink just added moves the minute the level stays under the sleep threshold later, into a
    /// night (from a bedtime to `nightHours` after it) or past the next bedtime; nil otherwise: a cup
    /// at 05:45 that keeps you up until 13:00 keeps no night awake. Only a drink of the day before
    /// that night (had since the night before it ended) speaks of it: one entered late for a time
    /// long past ("yesterday 9am") belongs to a night already over, whatever its tail adds tonight.
    static func bedtimeWarning(after status: CaffeineStatus, added: Drink, settings: JournalSettings) -> String? {
        guard let bedtime = settings.bedtime, let night = status.bedtime, let after = status.sleepReadyAt,
              let index = status.intakes.firstIndex(where: { $0.consumedAt == added.consumedAt && $0.caffeineMg == added.caffeineMg })
        else { return nil }
        let nightEnd = night.bedtime + .seconds(Int64(BedtimeForecast.nightHours * 3600))
        guard added.consumedAt >= nightEnd - .seconds(24 * 3600) else { return nil }
        let nextBedtime = night.isPast
            ? LocalTime.instant(of: bedtime, on: LocalTime.components(night.bedtime).date.adding(days: 1)) : night.bedtime
        func keepsANightAwake(_ instant: Timestamp) -> Bool { (instant > night.bedtime && instant <= nightEnd) || instant > nextBedtime }
        guard keepsANightAwake(after) else { return nil }
        var without = status.intakes
        without.remove(at: index)
        let before = status.model.sleepReadyAt(threshold: settings.sleepThresholdMg, now: status.at, intakes: without)
        // Sleep-ready moves by whole minutes: a drink that moves it by none changes nothing to say.
        if let before, after <= before { return nil }
        let threshold = formatMilligrams(settings.sleepThresholdMg)
        let was = before.flatMap { keepsANightAwake($0) ? " (it was \(LocalTime.clockTime($0)))" : nil } ?? ""
        return "This keeps you above \(threshold) mg until \(LocalTime.clockTime(after)), past your \(bedtime) bedtime\(was)."
    }
}

/// What `journal add` did: the drink recorded, and the status after it when there is a bedtime.
struct AddOutcome: Sendable {
    let drink: Drink
    let night: CaffeineStatus?
    /// The settings in effect, when they were read.
    let settings: JournalSettings?
    /// Why the journal no longer syncs, said once.
    let syncStopped: String?
}

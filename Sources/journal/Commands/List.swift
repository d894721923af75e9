import ArgumentParser
import CommandLineSupport
import JournalKit

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show recent drinks, oldest first (the last 20 unless told otherwise).",
        aliases: ["log"])

    @Option(name: .long, help: ArgumentHelp("Only drinks had at or after this time; a day alone is its start (yesterday, monday, 20 nov, 2026-11-25).", valueName: "time"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("Only drinks had before this time; a day alone is its start.", valueName: "time"))
    var until: String?

    @Option(name: .long, help: "At most this many of the latest drinks.")
    var limit: Int?

    @Option(
        name: .long, help: ArgumentHelp("Only this drink (a name or alias, as journal drinks lists them).", valueName: "drink"),
        completion: .custom(CompletionWords.drinks))
    var drink: String?

    @Option(name: .long, help: ArgumentHelp("Only drinks whose note holds these words (each of them, case aside).", valueName: "words"))
    var note: String?

    @Flag(name: .long, help: "The whole history.")
    var all = false

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    static let defaultLimit = 20

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more, such as --limit 50.") }
        if all, limit != nil { throw ValidationError("--all and --limit contradict each other; give one.") }
    }

    /// What this command line asks for.
    var request: ListRequest {
        ListRequest(since: since, until: until, limit: limit, all: all, drink: drink, note: note, db: global.db, json: output.json)
    }

    func run() throws { try request.run() }
}

/// `journal list`, as either parser read it (`FastPath`, or swift-argument-parser through `List`).
struct ListRequest: Equatable {
    var since: String?
    var until: String?
    var limit: Int?
    var all = false
    var drink: String?
    var note: String?
    var db: String?
    var json = false

    func run() throws {
        let clock = try JournalAccess.clock()
        let times = TimeExpression(now: clock.now())
        // A day alone starts when the person's days do: the settings are read for a range only. The
        // bounds are checked before the journal is opened, and read again once its settings are known.
        let config = since == nil && until == nil ? nil : try ConfigFile.load()
        _ = try since.map { try times.parseBound($0, dayStart: .midnight) }
        _ = try until.map { try times.parseBound($0, dayStart: .midnight) }
        // A time range asks for everything in it; without one, the latest few are what "recent" means.
        let count = all ? nil : limit ?? (since == nil && until == nil ? List.defaultLimit : nil)
        let words = note.map { $0.split(separator: " ").map(String.init) } ?? []
        let (since, until, drink) = (since, until, drink)
        let drinks = try JournalAccess.withStore(db: db, clock: clock) { store in
            let dayStart = try config.map { try $0.inEffect(synced: store.syncedSettings()).dayStartsAt } ?? .midnight
            let from = try since.map { try times.parseBound($0, dayStart: dayStart) }
            let to = try until.map { try times.parseBound($0, dayStart: dayStart) }
            // A drink of one's own that was removed since still names the drinks logged with it.
            let kind = try drink.map { name in
                try DrinkCatalog.settledKind(named: name)?.name ?? store.importCatalog().resolve(name).name
            }
            return try store.drinks(from: from, until: to, limit: count, kind: kind, noteWords: words)
        }
        if json {
            Output.line(DrinkExchange.jsonArray(drinks), terminator: "")
            return
        }
        guard !drinks.isEmpty else {
            let filtered = since != nil || until != nil || drink != nil || !words.isEmpty
            Output.line(filtered ? "No drinks match." : "No drinks yet. Record one with: journal add espresso")
            return
        }
        let rows = drinks.map { drink in
            [drink.id.short, LocalTime.display(drink.consumedAt), drink.kind,
             formatMilligrams(drink.caffeineMg), drink.note ?? ""]
        }
        Output.line(Output.table(["ID", "TIME", "DRINK", "MG", "NOTE"], rows))
    }
}

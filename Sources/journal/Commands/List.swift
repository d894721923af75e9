import ArgumentParser
import CommandLineSupport
import JournalKit

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show recent drinks, oldest first (the last 20 unless told otherwise).",
        aliases: ["log"])

    @Option(name: .long, help: ArgumentHelp("Only drinks had at or after this time.", valueName: "time"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("Only drinks had before this time.", valueName: "time"))
    var until: String?

    @Option(name: .long, help: "At most this many of the latest drinks.")
    var limit: Int?

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
        ListRequest(since: since, until: until, limit: limit, all: all, db: global.db, json: output.json)
    }

    func run() throws { try request.run() }
}

/// `journal list`, as either parser read it (`FastPath`, or swift-argument-parser through `List`).
struct ListRequest: Equatable {
    var since: String?
    var until: String?
    var limit: Int?
    var all = false
    var db: String?
    var json = false

    func run() throws {
        let clock = try JournalAccess.clock()
        let times = TimeExpression(now: clock.now())
        let from = try since.map { try times.parse($0, allowFuture: true) }
        let to = try until.map { try times.parse($0, allowFuture: true) }
        // A time range asks for everything in it; without one, the latest few are what "recent" means.
        let count = all ? nil : limit ?? (from == nil && to == nil ? List.defaultLimit : nil)
        let drinks = try JournalAccess.withStore(db: db, clock: clock) { store in
            try store.drinks(from: from, until: to, limit: count)
        }
        if json {
            Output.line(DrinkExchange.jsonArray(drinks), terminator: "")
            return
        }
        guard !drinks.isEmpty else {
            Output.line(from == nil && to == nil ? "No drinks yet. Record one with: journal add espresso" : "No drinks in that time.")
            return
        }
        let rows = drinks.map { drink in
            [drink.id.short, LocalTime.display(drink.consumedAt), drink.kind,
             formatMilligrams(drink.caffeineMg), drink.note ?? ""]
        }
        Output.line(Output.table(["ID", "TIME", "DRINK", "MG", "NOTE"], rows))
    }
}

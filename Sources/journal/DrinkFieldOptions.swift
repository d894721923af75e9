import ArgumentParser
import JournalKit

/// `--mg`, `--at` and `--note`: what `add` and `edit` take to say what a drink was.
struct DrinkFieldOptions: ParsableArguments {
    /// Read by `CaffeineDose.parse`, as every way in reads an amount: not by `Double`, which takes
    /// hexadecimal, `inf` and `nan`.
    @Option(name: .long, parsing: .unconditional, help: "Caffeine in mg (default: the drink's amount in the catalog).")
    var mg: String?

    @Option(name: .long, help: ArgumentHelp("When you had it: 08:30, 3pm, yesterday 21:00, 30 min ago, ISO 8601.", valueName: "time"))
    var at: String?

    @Option(name: .long, help: "A note to keep with the drink; with edit, \"\" removes it.")
    var note: String?

    /// `--mg`, checked before anything opens the journal.
    func caffeine() throws -> Double? {
        try mg.map { try CaffeineDose.parse($0) }
    }

    /// `--at` read against `clock`'s now.
    func time(_ clock: any JournalClock) throws -> Timestamp? {
        try at.map { try TimeExpression(now: clock.now()).parse($0) }
    }
}

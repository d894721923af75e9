import ArgumentParser
import CLinux
import JournalKit

/// `journal import`: the grammar shared by the two programs that know it. `journal` parses it and
/// imports an export of its own itself; an Apple Health export it hands, parsed, to `journal-import`,
/// which links the zip library (and Foundation with it) that the everyday binary does not.
public struct Import: AsyncParsableCommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the drinks of an export (journal's JSON or CSV, or Apple Health's) that the journal does not have yet.",
        discussion: """
            Idempotent: a drink the journal has (by its id) is left as it is, so importing the same file again, \
            or a later export that overlaps an earlier one, adds each drink once. `journal undo` takes back a \
            whole import. A journal export (JSON or CSV, as `journal export` writes) imports all or nothing. \
            With --from apple-health, FILE is the export.zip of the Health app (Profile, Export All Health Data), \
            or the export.xml in it: its dietary caffeine samples become drinks, a catalog drink when the amount \
            is one (Coffee Tracker writes exactly its catalog amounts), otherwise a drink named for the app that \
            wrote it (health-caffeine-app). A sample that cannot be a drink is reported by its line and the rest \
            imports, unless --all-or-nothing.
            """)

    /// Where an import comes from.
    public enum Origin: String, ExpressibleByArgument, CaseIterable, Sendable {
        case journal
        case appleHealth = "apple-health"
        case sleepCSV = "sleep-csv"

        /// True when `journal-import`, which links what reading it takes, carries it out; false when
        /// `journal` does itself.
        public var isForTheImporter: Bool {
            switch self {
            case .journal, .sleepCSV: false
            case .appleHealth: true
            }
        }
    }

    @Argument(help: ArgumentHelp("The file, or - for stdin (a journal export only).", valueName: "file"))
    public var file: String

    @Option(name: .long, help: "What wrote the file: journal (JSON or CSV), apple-health or sleep-csv (default: what the file looks like).")
    public var from: Origin?

    /// What the file is read as: `--from`, else what its first bytes look like (a journal export when
    /// they look like nothing an import reads, which then says why not; stdin is a journal export).
    public var origin: Origin { from ?? (file == "-" ? .journal : recognised.origin ?? .journal) }

    /// What the file looks like.
    public var recognised: ImportFileKind { ImportFileKind.of(FileSystem.firstBytes(of: file, count: ImportFileKind.sniffedBytes)) }

    /// The file, given with a `--from` that does not read what it looks like, said as what it is;
    /// nil when it fits (or nothing can be told of it: stdin, a FIFO, a file that cannot be opened,
    /// which reading then names).
    public func mismatch() -> ImportFileMismatch? {
        guard let from, file != "-" else { return nil }
        let kind = recognised
        if kind == .other { return nil }
        if let fits = kind.origin { return fits == from ? nil : ImportFileMismatch(file: file, looks: kind, given: from) }
        // Text no --from reads: the journal's reader names its line; Health's reader names markup's
        // encoding or root, and has nothing to say of other text.
        guard from == .appleHealth, case .otherText(let line) = kind, !line.hasPrefix("<") else { return nil }
        return ImportFileMismatch(file: file, looks: kind, given: from)
    }

    @Option(name: .long, help: ArgumentHelp("With apple-health: only the caffeine samples of this app (as Health names it).", valueName: "app"))
    public var source: String?

    @Option(
        name: .customLong("sleep-source"),
        help: ArgumentHelp(
            "With apple-health or sleep-csv: each night from this source (a watch, say), not the one with the most sleep.",
            valueName: "name"))
    public var sleepSource: String?

    @Flag(name: .long, help: "With apple-health: import nothing when a sample cannot be a drink.")
    public var allOrNothing = false

    @Flag(name: .long, help: "Bring back the drinks of the file that were deleted here (by rm, undo or another machine).")
    public var restoreDeleted = false

    @OptionGroup public var global: GlobalOptions
    @OptionGroup public var output: OutputOptions

    public init() {}

    public func validate() throws {
        switch origin {
        case .journal:
            if source != nil || allOrNothing { throw ValidationError("--source and --all-or-nothing are for --from apple-health.") }
            if sleepSource != nil { throw ValidationError("--sleep-source is for --from apple-health or sleep-csv.") }
        case .sleepCSV:
            if allOrNothing || restoreDeleted { throw ValidationError("--all-or-nothing and --restore-deleted are for drinks, not sleep.") }
            if source != nil { throw ValidationError("--source picks apple-health's caffeine; --sleep-source names the source of the nights.") }
        case .appleHealth:
            if file == "-" { throw ValidationError("an Apple Health export is read from its file (export.zip or export.xml), not stdin.") }
        }
    }

    public func run() async throws {
        // Carried out by journal-import, which a program routes it to.
        if origin.isForTheImporter { throw UnroutedCommand(command: "import --from \(origin.rawValue)") }
        // Ctrl-C from here until the import commits ends it with nothing imported, and says so.
        journal_import_interrupt_catch()
        if let mismatch = mismatch() { throw mismatch }
        if from == nil, file != "-", case .otherText = recognised { throw ImportFileMismatch(file: file, looks: recognised, given: nil) }
        if origin == .sleepCSV { return try await importSleep() }
        let bytes = try FileBytes.read(file, limit: DrinkExchange.importSizeLimit, what: "an import file")
        // Stdin, read whole: an Apple Health export is said as such, not as JSON gone wrong.
        let kind = ImportFileKind.of(Array(bytes.prefix(ImportFileKind.sniffedBytes)))
        if kind.origin == .appleHealth { throw ImportFileMismatch(file: file, looks: kind, given: .journal) }
        let clock = try global.clock()
        let store = try await global.openStore(clock: clock)
        let export = try DrinkExchange.parse(bytes, catalog: try await store.importCatalog(), now: clock.now())
        let progress = ProgressLine.onTerminal("Importing")
        defer { progress?.finish() }
        let total = export.drinks.count
        let summary = try await store.importDrinks(
            export.drinks, defining: export.customDrinks, restoringDeleted: restoreDeleted, committing: { journal_import_commit_begins() }
        ) { done in
            progress?.update(done: Int64(done), total: Int64(total), "\(done) of \(total) drinks")
        }
        progress?.finish()
        if output.json { return Output.line(JSONValue.object(summary.jsonFields).prettyText) }
        Output.line(summary.headline(from: nil) + ".")
    }
}

extension Import {
    /// The most a sleep CSV may hold: ten years of a watch's stages is about 7 MiB.
    static let sleepSizeLimit = 32 * 1024 * 1024

    /// `--from sleep-csv`: the nights of a tracker's samples.
    func importSleep() async throws {
        let bytes = try FileBytes.read(file, limit: Self.sleepSizeLimit, what: "a sleep CSV")
        let parsed = try SleepCSV.parse(bytes)
        let clock = try global.clock()
        let outcome = SleepNights.nights(in: parsed.samples, source: sleepSource, now: clock.now())
        let summary = try await global.openStore(clock: clock).importNights(outcome.nights, committing: { journal_import_commit_begins() })
        let skipped = parsed.skipped.map { (place: "line \($0.line)", problem: $0.problem) }
        Self.report(summary, outcome: outcome, skipped: skipped, skippedCount: parsed.skippedCount, from: "sleep CSV", json: output.json)
    }

    /// How many lines or nights left out are named one by one; the rest are counted.
    public static let leftOutShown = 20

    /// What an import of nights says: how many, and every sample and night left out, by where it was.
    public static func report(
        _ summary: NightImportSummary, outcome: SleepNights.Outcome, skipped: [(place: String, problem: String)], skippedCount: Int,
        from origin: String, json: Bool
    ) {
        let leftOut = outcome.leftOut.prefix(leftOutShown).map { (place: "the night of \($0.date)", problem: $0.reason) }
        let unshown = skippedCount - skipped.count + outcome.leftOut.count - leftOut.count
        if json {
            return Output.line(JSONValue.object([
                ("nights_imported", .number(Double(summary.added + summary.replaced))), ("nights_added", .number(Double(summary.added))),
                ("nights_replaced", .number(Double(summary.replaced))), ("nights_already_present", .number(Double(summary.unchanged))),
                ("naps_left_out", .number(Double(outcome.naps))), ("left_out", .number(Double(skippedCount + outcome.leftOut.count))),
                ("skipped", .array((skipped + leftOut).map { .object([("where", .string($0.place)), ("problem", .string($0.problem))]) })),
            ]).prettyText)
        }
        let imported = summary.added + summary.replaced
        var notes: [String] = []
        if summary.replaced > 0 { notes.append("\(summary.replaced) of them replacing the journal's") }
        if summary.unchanged > 0 { notes.append("\(summary.unchanged) already in the journal") }
        if outcome.naps > 0 { notes.append("\(outcome.naps) nap\(outcome.naps == 1 ? "" : "s") left out") }
        Output.line("Imported \(imported) night\(imported == 1 ? "" : "s") from the \(origin)" + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")") + ".")
        for (place, problem) in skipped + leftOut { Output.error("left out, \(place): \(TerminalText.escaped(problem))") }
        if unshown > 0 { Output.error("left out \(unshown) more") }
    }
}

extension ImportSummary {
    /// What `import --json` says of the drinks: how many were imported, brought back, already here,
    /// and left deleted.
    public var jsonFields: [(String, JSONValue)] {
        [
            ("imported", .number(Double(added + restored))), ("restored", .number(Double(restored))),
            ("already_present", .number(Double(alreadyPresent))), ("deleted_here", .number(Double(deletedHere))),
        ]
    }

    /// "Imported 3 drinks (2 already in the journal; 14 deleted here: --restore-deleted brings them
    /// back)", with " from Apple Health" after "drinks" when `origin` is given.
    public func headline(from origin: String?) -> String {
        let imported = added + restored
        var line = "Imported \(imported) drink\(imported == 1 ? "" : "s")" + (origin.map { " from " + $0 } ?? "")
        var notes: [String] = []
        if restored > 0 { notes.append("\(restored) of them deleted here, brought back") }
        if alreadyPresent > 0 { notes.append("\(alreadyPresent) already in the journal") }
        if deletedHere > 0 {
            notes.append("\(deletedHere) deleted here, left deleted: --restore-deleted brings \(deletedHere == 1 ? "it" : "them") back")
        }
        if !notes.isEmpty { line += " (" + notes.joined(separator: "; ") + ")" }
        return line
    }
}

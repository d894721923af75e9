import AppleHealth
import CLinux
import CommandLineSupport
import JournalKit

/// An Apple Health export read and imported in one transaction (`journal undo` takes it back), with
/// its progress on a terminal and every sample it could not take said by its line (the first twenty,
/// and how many more). The export is read to its end before the journal is opened: what it cannot
/// import is refused without touching the journal, and the journal's write lock is held only while
/// the staged drinks are written.
@MainActor
struct AppleHealthImport {
    let command: Import

    func run() async throws {
        // Ctrl-C until the drinks commit ends the import with nothing imported, and says so; from
        // then on the nights follow them.
        journal_import_interrupt_catch()
        let clock = try command.global.clock()
        let staging = try ImportStaging()
        let reading = ProgressLine.onTerminal("Reading the export")
        let contents = try HealthExportReader.read(command.file, source: command.source, now: clock.now(), into: staging) {
            @Sendable done, total in
            reading?.update(done: done, total: total, "\(ByteCount(Int(done))) of \(ByteCount(Int(total)))")
        }
        reading?.finish()
        if command.allOrNothing && contents.skippedCount > 0 {
            throw HealthImportError.samplesRefused(contents.skipped, count: contents.skippedCount, of: contents.samples)
        }
        let store = try await JournalStore(path: try command.global.databasePath(), clock: clock, executor: Executors.main)
        let writing = ProgressLine.onTerminal("Importing")
        let total = staging.count
        let summary = try await store.importStaged(
            staging, restoringDeleted: command.restoreDeleted, committing: { journal_import_commit_begins() }
        ) { done in
            writing?.update(done: Int64(done), total: Int64(total), "\(done) of \(total) drinks")
        }
        writing?.finish()
        // The nights, from the source named or each night's most asleep (`SleepNights`).
        let sleep = SleepNights.nights(in: contents.sleepSamples, source: command.sleepSource, now: clock.now())
        let nights = try await store.importNights(sleep.nights)
        let nightsLeftOut: [JSONValue] = sleep.leftOut.map { .string("the night of \($0.date): \($0.reason)") }
        let sleepSkipped: [(place: String, problem: String)] = contents.sleepSkipped.map { ("line \($0.line)", $0.reason) }
        if command.output.json {
            Output.line(JSONValue.object(summary.jsonFields + [
                ("samples", .number(Double(contents.samples))), ("records_read", .number(Double(contents.recordsRead))),
                ("other_apps_left_out", .number(Double(contents.otherSources))), ("skipped", .number(Double(contents.skippedCount))),
                ("skipped_lines", .array(contents.skipped.map { .string($0.description) })),
                ("sleep_samples", .number(Double(contents.sleepSamples.count))),
                ("nights_imported", .number(Double(nights.added + nights.replaced))), ("nights_already_present", .number(Double(nights.unchanged))),
                ("naps_left_out", .number(Double(sleep.naps))),
                ("nights_left_out", .array(nightsLeftOut)), ("sleep_records_skipped", .number(Double(contents.sleepSkippedCount))),
            ]).prettyText)
            return
        }
        var line = summary.headline(from: "Apple Health")
        line += "; \(contents.samples) caffeine sample\(contents.samples == 1 ? "" : "s") in \(contents.recordsRead) records"
        if contents.otherSources > 0 { line += ", \(contents.otherSources) of other apps left out" }
        if contents.skippedCount > 0 { line += ", \(contents.skippedCount) skipped" }
        Output.line(TerminalText.escaped(line + "."))
        if !contents.sleepSamples.isEmpty || contents.sleepSkippedCount > 0 {
            Import.report(
                nights, outcome: sleep, skipped: sleepSkipped, skippedCount: contents.sleepSkippedCount,
                from: "\(contents.sleepSamples.count) sleep samples", json: false)
        }
        for skipped in contents.skipped { Output.error("skipped \(TerminalText.escaped(skipped.description))") }
        if contents.skippedCount > contents.skipped.count { Output.error("skipped \(contents.skippedCount - contents.skipped.count) more") }
    }
}

import AppleHealth
import CommandLineSupport
import JournalKit

/// An Apple Health export read and imported in one transaction (`journal undo` takes it back), with
/// its progress on a terminal and every sample it could not take said by its line.
@MainActor
struct AppleHealthImport {
    let command: Import

    func run() async throws {
        let progress = ProgressLine.onTerminal("Reading the export")
        defer { progress?.finish() }
        let contents = try HealthExportReader.read(command.file, source: command.source) { done, total in
            progress?.update(done: done, total: total, "\(ProgressLine.bytes(done)) of \(ProgressLine.bytes(total))")
        }
        progress?.finish()
        let samples = contents.drinks.count + contents.skipped.count
        if command.allOrNothing && !contents.skipped.isEmpty {
            throw HealthImportError.samplesRefused(contents.skipped, of: samples)
        }
        let store = try await JournalStore(
            path: try command.global.databasePath(), clock: try command.global.clock(), executor: Executors.main)
        let summary = try await store.importDrinks(contents.drinks, defining: contents.customDrinks)
        var line = "Imported \(summary.added) drink\(summary.added == 1 ? "" : "s") from Apple Health"
        if summary.alreadyPresent > 0 { line += " (\(summary.alreadyPresent) already in the journal)" }
        line += "; \(samples) caffeine sample\(samples == 1 ? "" : "s") in \(contents.recordsRead) records"
        if contents.otherSources > 0 { line += ", \(contents.otherSources) of other apps left out" }
        if !contents.skipped.isEmpty { line += ", \(contents.skipped.count) skipped" }
        Output.line(TerminalText.escaped(line + "."))
        for skipped in contents.skipped.prefix(20) { Output.error("skipped \(TerminalText.escaped(skipped.description))") }
        if contents.skipped.count > 20 { Output.error("skipped \(contents.skipped.count - 20) more") }
    }
}

import ArgumentParser
import JournalKit
import JournalSync

struct SyncNow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Publish this journal's changes and apply the other machines' (what `journal sync` does).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let clock = try global.clock()
        let store = try await global.openStore(clock: clock)
        let engine = try await SyncSetup.engine(for: store)
        let report: SyncReport
        do {
            report = try await engine.sync()
        } catch {
            try? await store.recordSyncResult("failed: \(failureMessage(error))", at: clock.now(), hubID: engine.hub.id)
            throw error
        }
        let result = report.failures.isEmpty ? report.summary : report.summary + " \(report.failures.count) segment(s) failed."
        try await store.recordSyncResult(result, at: clock.now(), hubID: engine.hub.id)
        if output.json {
            Output.line(report.json.prettyText)
        } else {
            Output.line(report.summary)
        }
        if !report.failures.isEmpty { throw SyncError.segmentsFailed(report.failures) }
    }
}

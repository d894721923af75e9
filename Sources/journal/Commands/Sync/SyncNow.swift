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
        let store = try await global.openStore()
        let report = try await SyncSetup.engine(for: store).syncRecordingResult()
        if output.json {
            Output.line(report.json.prettyText)
        } else {
            Output.line(TerminalText.escaped(report.summary))
        }
        if !report.failures.isEmpty { throw SyncError.segmentsFailed(report.failures) }
    }
}

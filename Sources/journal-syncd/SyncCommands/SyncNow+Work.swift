import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncNow {
    func carryOut() async throws {
        let store = try await global.openStore()
        let report = try await SyncSetup.withEngine(for: store, places: .known) { try await $0.syncRecordingResult() }
        if output.json {
            Output.line(report.json.prettyText)
        } else {
            Output.line(TerminalText.escaped(report.summary))
        }
        if !report.failures.isEmpty { throw SyncError.segmentsFailed(report.failures) }
    }
}

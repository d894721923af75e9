import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncNow {
    func carryOut() async throws {
        let store = try await global.openStore()
        let line = ProgressLine.onTerminal("Syncing")
        defer { line?.finish() }
        let progress = SyncProgress { applied, published in
            line?.update(done: Int64(applied + published), total: nil, "\(published) changes published, \(applied) applied")
        }
        let moved = try await SettingsMove.run(store)
        let report = try await SyncSetup.syncOnce(store, hubs: .known, progress: progress)
        line?.finish()
        if output.json {
            Output.line(report.json.prettyText)
        } else {
            if let moved { Output.line(TerminalText.escaped(moved.sentence)) }
            Output.line(TerminalText.escaped(report.summary))
        }
        if !report.failures.isEmpty { throw SyncError.segmentsFailed(report.failures) }
    }
}

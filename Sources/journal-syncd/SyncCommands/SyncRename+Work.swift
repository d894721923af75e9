import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncRename {
    func carryOut() async throws {
        let name = try DeviceName(name)
        let store = try await global.openStore()
        let report = try await SyncSetup.withEngine(for: store, hubs: .known) { engine in
            // The others' names first, so that one taken meanwhile is refused here, not found later.
            _ = try await engine.readCards()
            return try await engine.rename(to: name)
        }
        if output.json {
            return Output.line(JSONValue.object([("device", .string(store.deviceID.rawValue)), ("name", .string(name.text))]).prettyText)
        }
        Output.line("This device is now called \(TerminalText.escaped(name.text)) on every device of the hub.")
        for sentence in SyncReport.setAsideSentences(report.keptNotes) { Output.line(TerminalText.escaped(sentence)) }
    }
}

import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncDevices {
    func carryOut() async throws {
        let list = try await DeviceList.gather(try await global.openStore(), places: .known)
        if output.json { return Output.line(list.json.prettyText) }
        let rows: [[String]] = list.entries.map { entry in
            [
                (entry.isThisDevice ? "* " : "  ") + TerminalText.escaped(entry.shownName), String(entry.device.rawValue.prefix(8)),
                entry.card.map { list.ago($0.publishedAt) } ?? "?", entry.card.map { list.ago($0.syncedAt) } ?? "?",
                entry.card.map { String($0.epoch) } ?? "?",
            ]
        }
        Output.line(Output.table(["  NAME", "DEVICE", "PUBLISHED", "SYNCED", "EPOCH"], rows))
        Output.line("* this device")
        for entry in list.entries {
            if let revoked = entry.revoked {
                Output.line("\(TerminalText.escaped(entry.shownName)) (\(entry.device.rawValue.prefix(8))) was revoked by "
                    + "\(TerminalText.escaped(revoked.by)) on \(LocalTime.display(revoked.at)): what it publishes since is refused.")
            } else if let problem = entry.cardProblem {
                Output.line("The card of device \(entry.device) was refused: \(TerminalText.escaped(problem)).")
            } else if entry.card == nil && !entry.isThisDevice {
                Output.line("Device \(entry.device) has no card yet: its journal predates cards, or it has not synced since.")
            }
        }
        if let problem = list.hubProblem {
            Output.line("The hub could not be read (\(TerminalText.escaped(problem))): this is what this journal last knew.")
        }
    }
}

import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncStatus {
    func carryOut() async throws {
        // A status answers within the connect timeout, also when the server stalls mid-answer.
        let overview = try await SyncOverview.gather(try await global.openStore(), places: .glance)
        if output.json { return Output.line(overview.json.prettyText) }
        let pending = overview.pendingChanges
        Output.line("Hub          \(TerminalText.escaped(overview.hub)) (hub \(overview.hubLabel): its key begins JK2-\(overview.hubLabel)-)")
        for fact in overview.description?.facts ?? [] {
            Output.line(fact.label + String(repeating: " ", count: max(1, 13 - fact.label.count)) + TerminalText.escaped(fact.value))
        }
        if overview.description?.rings == true {
            Output.line("Notified     " + (overview.lastNotificationAt.map { "\(LocalTime.display($0)), when another device last published" }
                ?? "never yet (journal-syncd listens for the server's notifications)"))
        }
        Output.line("This device  \(overview.device)")
        Output.line("Waiting      \(pending) change\(pending == 1 ? "" : "s") to publish")
        let last = overview.lastSyncAt.map { at in
            let outcome = overview.lastSync.map { $0.succeeded ? $0.message : "failed: " + $0.message } ?? ""
            return "\(LocalTime.display(at)): \(TerminalText.escaped(outcome))"
        } ?? "never"
        Output.line("Last sync    \(last)")
        Output.line("Daemon       " + (overview.daemonPID.map { "journal-syncd is running (pid \($0))" }
            ?? "not running; start it with systemctl --user enable --now journal-sync"))
        for silent in overview.silentDevices {
            let name = silent.card.map { TerminalText.escaped($0.name) } ?? silent.device.rawValue
            Output.line("Silent       \(name) has not synced for \(SyncReport.span(from: silent.card?.syncedAt ?? overview.at, to: overview.at))")
        }
        for gap in overview.waiting { Output.line("Gap          \(gap.sentence(at: overview.at))") }
        if let problem = overview.hubProblem { Output.line("Hub problem  \(TerminalText.escaped(problem))") }
        for warning in overview.description?.warnings ?? [] { Output.line("Warning      \(TerminalText.escaped(warning))") }
        if let setAside = overview.setAsideSummary { Output.line("Set aside    \(TerminalText.escaped(setAside))") }
        for kept in overview.keptFromShutOut { Output.line("Kept         " + TerminalText.escaped(kept.sentence.prefix(1).uppercased() + kept.sentence.dropFirst()) + ".") }
        let refusedCards = overview.refusedOnHub.filter { $0.kind == .card }.count
        let refusedRecords = overview.refusedOnHub.filter { $0.kind == .epoch }.count
        if refusedCards + refusedRecords > 0 {
            let counted = [(refusedCards, "card"), (refusedRecords, "key epoch record")].filter { $0.0 > 0 }
                .map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: " and ")
            Output.line("Refused      \(counted) on the hub that are no device's or epoch's of it (junk, altered, or another device's "
                + "keys): each was read once and is not read again until it changes (`journal sync devices` names the cards)")
        }
        guard !overview.devices.isEmpty else { return Output.line("Other devices: none yet") }
        let rows: [[String]] = overview.devices.map { state in
            [
                state.card.map { TerminalText.escaped($0.name) } ?? DeviceList.noCard, state.device.rawValue, String(state.appliedPosition),
                state.hubPosition.map { String($0) } ?? "?", state.card.map { SyncReport.ago($0.syncedAt, at: overview.at) } ?? "?",
            ]
        }
        Output.line("")
        Output.line(Output.table(["NAME", "DEVICE", "APPLIED", "ON HUB", "LAST SYNCED"], rows))
    }
}

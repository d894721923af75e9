import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncStatus {
    func carryOut() async throws {
        // A status answers within the connect timeout, also when the server stalls mid-answer.
        let store = try await global.openStore()
        // Not joined is an answer, as git status's outside a repository is not: said with the fix, exit 0.
        if try await store.hub() == nil {
            if output.json { return Output.line(SyncOverview.notJoinedJSON(device: store.deviceID).prettyText) }
            return Output.paragraph(FailureReport.describe(SyncError.notJoined).message.sentenceCased)
        }
        let overview = try await SyncOverview.gather(store, hubs: .glance)
        if output.json { return Output.line(overview.json.prettyText) }
        Self.printJournal(overview)
        Self.printFindings(overview)
        Self.printDevices(overview)
    }

    /// The hub, this device, what waits to be published, the last sync and the daemon.
    private static func printJournal(_ overview: SyncOverview) {
        let pending = overview.pendingChanges
        Output.line("Hub          \(TerminalText.escaped(overview.hub)) (hub \(overview.hubLabel): its key begins JK2-\(overview.hubLabel)-)")
        for fact in overview.description?.facts ?? [] {
            Output.line(fact.label + String(repeating: " ", count: max(1, 13 - fact.label.count)) + TerminalText.escaped(fact.value))
        }
        switch overview.heard {
        case .ring:
            Output.line("Notified     " + (overview.lastNotificationAt.map { "\(LocalTime.display($0)), when another device last published" }
                ?? "never yet (journal-syncd listens for the server's notifications)"))
        case .looking:
            Output.line("Seen         " + (overview.lastNotificationAt.map { "\(LocalTime.display($0)), when a look last found another device's change" }
                ?? "never yet (journal-syncd looks at the hub for other devices' changes)"))
        case .watching, nil:
            break
        }
        Output.line("This device  \(overview.device)")
        Output.line("Waiting      \(pending) change\(pending == 1 ? "" : "s") to publish")
        if let moved = overview.moved { Output.line("Moved        " + moved.sentence) }
        let last = overview.lastSyncAt.map { at in
            let outcome = overview.lastSync.map { $0.succeeded ? $0.message : "failed: " + $0.message } ?? ""
            return "\(LocalTime.display(at)): \(TerminalText.escaped(outcome))"
        } ?? "never"
        Output.line("Last sync    \(last)")
        Output.line("Daemon       " + (overview.daemonPID.map { "journal-syncd is running (pid \($0))" }
            ?? DaemonStartAdvice.here().sentence))
    }

    /// What is wrong or worth knowing: silent devices, gaps, clocks, the hub's problems and warnings,
    /// files set aside, what was kept of revoked devices, what the hub holds that was refused.
    private static func printFindings(_ overview: SyncOverview) {
        for silent in overview.silentDevices {
            let name = silent.card.map { TerminalText.escaped($0.name) } ?? silent.device.rawValue
            Output.line("Silent       \(name) has not synced for \(SyncReport.span(from: silent.card?.syncedAt ?? overview.at, to: overview.at))")
        }
        for gap in overview.waiting { Output.line("Gap          \(gap.sentence(at: overview.at))") }
        if let leftBehind = overview.clockLeftBehind { Output.line("Clock        " + leftBehind.sentence.sentenceCased + ".") }
        for state in overview.devices {
            guard let ahead = state.clockAhead else { continue }
            let name = state.card.map { TerminalText.escaped($0.name) } ?? state.device.rawValue
            Output.line("Clock        " + ahead.sentence(name: name) + ".")
        }
        if let problem = overview.hubProblem { Output.line("Hub problem  \(TerminalText.escaped(problem))") }
        for warning in overview.description?.warnings ?? [] { Output.line("Warning      \(TerminalText.escaped(warning))") }
        if let setAside = overview.setAsideSummary { Output.line("Set aside    \(TerminalText.escaped(setAside))") }
        for kept in overview.keptFromShutOut { Output.line("Kept         " + TerminalText.escaped(kept.sentence.sentenceCased) + ".") }
        let refusedCards = overview.refusedOnHub.filter { $0.kind == .card }.count
        let refusedRecords = overview.refusedOnHub.filter { $0.kind == .epoch }.count
        if refusedCards + refusedRecords > 0 {
            let counted = [(refusedCards, "card"), (refusedRecords, "key epoch record")].filter { $0.0 > 0 }
                .map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: " and ")
            Output.line("Refused      \(counted) on the hub that are no device's or epoch's of it (junk, altered, or another device's "
                + "keys): each was read once and is not read again until it changes (`journal sync devices` names the cards)")
        }
    }

    /// The other devices: whether what the hub offers of each is here, when each last synced.
    private static func printDevices(_ overview: SyncOverview) {
        guard !overview.devices.isEmpty else { return Output.line("Other devices: none yet") }
        // Ids as `sync devices` shows them; whether each device's changes on the hub are all here, not
        // its log positions, which count every change of its journal and no count a sync says.
        let rows: [[String]] = overview.devices.map { state in
            [
                state.card.map { TerminalText.escaped($0.name) } ?? DeviceList.noCard, String(state.device.rawValue.prefix(8)),
                Self.changesWord(state), state.card.map { SyncReport.ago($0.syncedAt, at: overview.at) } ?? "?",
            ]
        }
        Output.line("")
        Output.line(Output.table(["NAME", "DEVICE", "ITS CHANGES", "LAST SYNCED"], rows))
        for state in overview.devices {
            guard let revoked = state.revoked else { continue }
            Output.line("\(state.card.map { TerminalText.escaped($0.name) } ?? DeviceList.noCard) (\(state.device.rawValue.prefix(8))) was revoked by "
                + "\(TerminalText.escaped(revoked.by)) on \(LocalTime.display(revoked.at)): what it publishes since is refused.")
        }
    }

    /// Whether what the hub offers of a device's log is applied here, or why not; ? when the hub could
    /// not be read.
    private static func changesWord(_ state: SyncOverview.DeviceState) -> String {
        if state.revoked != nil { return "revoked" }
        switch state.isCaughtUp {
        case true?: return "all applied"
        case false?: return "more on the hub"
        case nil: return "?"
        }
    }
}

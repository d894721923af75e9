import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncDevices {
    func carryOut() async throws {
        let list = try await DeviceList.gather(try await global.openStore(), hubs: .known)
        if output.json { return Output.line(list.json.prettyText) }
        let rows: [[String]] = list.entries.map { entry in
            [
                (entry.isThisDevice ? "* " : "  ") + TerminalText.escaped(entry.shownName), String(entry.device.rawValue.prefix(8)),
                entry.revoked != nil ? "revoked" : entry.standing.map(Self.standingWord) ?? "?",
                entry.card.map { list.ago($0.publishedAt) } ?? "?", entry.card.map { list.ago($0.syncedAt) } ?? "?",
                entry.card.map { String($0.epoch) } ?? "?",
            ]
        }
        Output.line(Output.table(["  NAME", "DEVICE", "MEMBER", "PUBLISHED", "SYNCED", "EPOCH"], rows))
        Output.line("* this device")
        if list.entries.contains(where: { $0.standing == .byKey && $0.revoked == nil }) {
            Output.line("by key: joined with the key alone, and no member vouches for it; a new key (rotate-key, revoke) leaves it out "
                + "unless you keep it (--keep NAME).")
        }
        for entry in list.entries {
            if let revoked = entry.revoked {
                Output.line("\(TerminalText.escaped(entry.shownName)) (\(entry.device.rawValue.prefix(8))) was revoked by "
                    + "\(TerminalText.escaped(revoked.by)) on \(LocalTime.display(revoked.at)): what it publishes since is refused.")
            } else if entry.standing == .outside {
                Output.line("\(TerminalText.escaped(entry.shownName)) (\(entry.device.rawValue.prefix(8))) is not a member: its card is "
                    + "sealed under a key that admits no one now, and no member vouches for it. Nothing it publishes is taken.")
            } else if let problem = entry.cardProblem {
                Output.line("The card of device \(entry.device) was refused: \(TerminalText.escaped(problem)).")
            } else if entry.card == nil && !entry.isThisDevice {
                Output.line("Device \(entry.device) has no card yet: its journal predates cards, or it has not synced since.")
            }
        }
        if let (device, reason) = list.refusedCards.sorted(by: { $0.key < $1.key }).first {
            let more = list.refusedCards.count - 1
            Output.line("\(list.refusedCards.count) card\(more == 0 ? " was" : "s were") refused that belong to no device of the hub, such as "
                + "\(device.rawValue.prefix(8)): \(TerminalText.escaped(reason)). They cost one reading each, and are not read again "
                + "until they change (`journal sync devices --json` lists them).")
        }
        if let problem = list.hubProblem {
            Output.line("The hub could not be read (\(TerminalText.escaped(problem))): this is what this journal last knew.")
        }
    }

    /// How a device's standing is said in the table.
    private static func standingWord(_ standing: MemberStanding) -> String {
        switch standing {
        case .vouched: "yes"
        case .byKey: "by key"
        case .outside: "no"
        }
    }
}

import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncKeyCommand {
    func carryOut() async throws {
        let path = try SyncSetup.keyPath()
        guard let key = try SyncSetup.loadKey(path) else { throw SyncError.noKey(path: path) }
        let store = try await global.openStore()
        guard let hub = try await store.hub() else { throw SyncError.notJoined }
        let now = store.clock.now()
        if noInvitation { return printKey(PrintedKey.text(of: key, hubID: hub.hubID), hub: hub.hubID, at: now, expiresAt: nil) }
        // Each key printed carries an invitation of its own: this device vouches for the first machine
        // that joins with it (`Invitations`), until the invitation ends.
        let expiresAt = now + (expires.flatMap(InvitationLifetime.init) ?? .standard).duration
        let invitation = SyncSetup.makeInvitation(by: store.deviceID)
        try await store.recordInvitation(
            publicKey: invitation.publicKey, claim: invitation.claim, at: now, expiresAt: expiresAt, keyCheck: key.check, hubID: hub.hubID)
        // The card that claims it goes up now, so that the machine joining with it finds at its first
        // sync who invited it. The key is printed all the same when the hub cannot be reached.
        do {
            let report = try await SyncSetup.withEngine(for: store, hubs: .known) { try await $0.showInvitations() }
            for sentence in SyncReport.setAsideSentences(report.keptNotes) { Output.error("journal: " + TerminalText.escaped(sentence)) }
        } catch {
            Output.error("journal: this device's card, which names the invitation, could not be written now (\(TerminalText.escaped(failureClause(error)))): "
                + "the machine that joins with the key finds who invited it once this one has synced.")
        }
        printKey(PrintedKey.text(of: key, hubID: hub.hubID, invitation: invitation.seed), hub: hub.hubID, at: now, expiresAt: expiresAt)
    }

    private func printKey(_ printed: String, hub: HubID, at now: Timestamp, expiresAt: Timestamp?) {
        if output.json {
            return Output.line(JSONValue.object([
                ("key", .string(printed)), ("hub_label", .string(PrintedKey.labelText(ofHub: hub))),
                ("invitation_printed_at", expiresAt.map { _ in .string(LocalTime.iso8601(now)) } ?? .null),
                ("invitation_expires_at", expiresAt.map { .string(LocalTime.iso8601($0)) } ?? .null),
            ]).prettyText)
        }
        Output.line(printed)
    }
}

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
        // Each key printed carries an invitation of its own: this device vouches for the first machine
        // that joins with it (`Invitations`).
        let invitation = SyncSetup.makeInvitation(by: store.deviceID)
        try await store.recordInvitation(publicKey: invitation.publicKey, claim: invitation.claim, at: store.clock.now(), hubID: hub.hubID)
        let printed = PrintedKey.text(of: key, hubID: hub.hubID, invitation: invitation.seed)
        if output.json {
            return Output.line(JSONValue.object([
                ("key", .string(printed)), ("hub_label", .string(PrintedKey.labelText(ofHub: hub.hubID))),
                ("invitation_printed_at", .string(LocalTime.iso8601(store.clock.now()))),
            ]).prettyText)
        }
        Output.line(printed)
    }
}

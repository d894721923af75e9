import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncInvitations {
    func carryOut() async throws {
        let store = try await global.openStore()
        guard let hub = try await store.hub() else { throw SyncError.notJoined }
        let now = store.clock.now()
        let path = try SyncSetup.keyPath()
        guard let key = try SyncSetup.loadKey(path) else { throw SyncError.noKey(path: path) }
        let open = try await store.invitations(hubID: hub.hubID).filter { $0.isOpen(at: now, currentKeyCheck: key.check) }
        if let withdraw {
            let chosen = withdraw.lowercased() == "all" ? open : open.filter { $0.id == withdraw.lowercased() }
            guard !chosen.isEmpty else { throw UnknownInvitation(id: withdraw, open: open.map(\.id)) }
            try await store.endInvitations(chosen.map(\.publicKey), why: .withdrawn, at: now, hubID: hub.hubID)
            // The card stops naming them: a machine joining with one is not vouched for, and finds no inviter.
            do { _ = try await SyncSetup.withEngine(for: store, hubs: .known) { try await $0.showInvitations() } } catch {}
            return Output.line(chosen.count == 1 ? "Withdrew invitation \(chosen[0].id)." : "Withdrew \(chosen.count) invitations.")
        }
        if output.json {
            return Output.line(JSONValue.array(open.map { invitation in
                .object([
                    ("id", .string(invitation.id)), ("printed_at", .string(LocalTime.iso8601(invitation.madeAt))),
                    ("expires_at", .string(LocalTime.iso8601(invitation.expiresAt))),
                ])
            }).prettyText)
        }
        guard !open.isEmpty else { return Output.line("No open invitations: `journal sync key` prints a key with one.") }
        let rows = open.map { [$0.id, LocalTime.display($0.madeAt), LocalTime.display($0.expiresAt)] }
        Output.line(Output.table(["ID", "PRINTED", "ENDS"], rows))
        Output.line("Each ends at its time, when a machine joins with it, or when the hub's key is replaced; --withdraw ID ends one now.")
    }
}

/// `--withdraw` named no open invitation.
struct UnknownInvitation: JournalFailure {
    let id: String
    let open: [String]

    var kind: FailureKind { .usage }
    var description: String {
        "no open invitation has the id '\(TerminalText.escaped(id))'" + (open.isEmpty
            ? ": there are none open."
            : "; the open ones are \(open.joined(separator: ", ")) (or --withdraw all).")
    }
}

import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncRotateKey {
    func carryOut() async throws {
        let store = try await global.openStore()
        let (record, reached) = try await SyncSetup.withEngine(for: store, places: .known) { engine in
            let record = try await engine.rotateKey()
            return (record, await engine.names(of: record.reaches))
        }
        Output.line("The hub's key was replaced (key epoch \(record.epoch.number)). The new key reaches "
            + KeyRotationText.devices(reached) + "; each takes it up at its next sync. `journal sync key` prints it, for a "
            + "machine that joins from now on; the old key admits no one.")
    }
}

extension SyncRevoke {
    func carryOut() async throws {
        let store = try await global.openStore()
        let (record, reached, name, kind) = try await SyncSetup.withEngine(for: store, places: .known) { engine in
            let device = try await engine.device(named: device)
            let record = try await engine.rotateKey(revoking: [device])
            return (record, await engine.names(of: record.reaches), await engine.names(of: [device])[0], engine.hub.kind)
        }
        Output.line("\(TerminalText.escaped(name)) was revoked (key epoch \(record.epoch.number)): it cannot read anything "
            + "published from now on, and every device refuses what it publishes from now on. The new key reaches "
            + KeyRotationText.devices(reached) + "; each takes it up at its next sync.")
        if kind == .postgres {
            Output.line("""

                The server is its administrator's to change: if \(TerminalText.escaped(name)) connects as a role of its own \
                (README, "A role per machine"), this takes it off the server (put in its role, and the person's role \
                it holds the rights of):
                  REVOKE "PERSONS_ROLE" FROM "ITS_ROLE";
                  REVOKE ALL ON ALL TABLES IN SCHEMA journal_hub FROM "ITS_ROLE";
                  ALTER ROLE "ITS_ROLE" NOLOGIN;
                  SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'ITS_ROLE';
                """)
        }
    }
}

/// How the devices a new key reaches are said.
enum KeyRotationText {
    static func devices(_ names: [String]) -> String {
        let shown = names.map { TerminalText.escaped($0) }
        return shown.count == 1 ? "this device alone" : "\(shown.count) devices (\(shown.joined(separator: ", ")))"
    }
}

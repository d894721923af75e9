import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncKeyCommand {
    func carryOut() async throws {
        let path = try SyncSetup.keyPath()
        guard let key = try SyncSetup.loadKey(path) else { throw SyncError.noKey(path: path) }
        guard let hub = try await global.openStore().hub() else { throw SyncError.notJoined }
        Output.line(PrintedKey.text(of: key, hubID: hub.hubID))
    }
}

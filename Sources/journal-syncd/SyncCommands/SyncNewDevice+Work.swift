import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncNewDevice {
    func carryOut() async throws {
        let new = try await SyncJoin.takeNewDeviceID(try await global.openStore())
        Output.line("This journal is now device \(new). Run `journal sync` to publish its changes under it.")
    }
}

import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncNewDevice {
    func carryOut() async throws {
        let store = try await global.openStore()
        let old = store.deviceID
        var name: String?
        if let hub = try await store.hub() { name = try await store.deviceCard(of: old, hubID: hub.hubID)?.name }
        let signs = try DeviceKeys.existing(at: JournalPaths.fromEnvironment().deviceKeys(of: old)) != nil
        let new = try await SyncJoin.takeNewDeviceID(store)
        Output.line("This journal is now device \(new) (it was \(old)). Run `journal sync` to publish its changes under it.")
        guard let name else { return }
        let shown = TerminalText.quoted(name)
        Output.line(signs
            ? "It keeps its name, \(shown), and the machines that vouched for \(old.rawValue.prefix(8)) vouch for it at their next sync: "
                + "the key of that device signs the hand-over."
            : "It keeps its name, \(shown). No key of \(old.rawValue.prefix(8)) is on this machine to sign the hand-over, so once it has "
                + "synced, run `journal sync rotate-key --keep \(ShellWord.quoted(name))` on another machine to keep it among the members.")
    }
}

import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

extension SyncInit {
    func carryOut() async throws {
        let givenKey = try keyFile.map { source in
            let label = source == "-" ? "the key on stdin" : source
            return try SyncKey(hex: String(decoding: try FileBytes.readKey(source), as: UTF8.self), source: label)
        }
        let store = try await global.openStore()
        let joined = try await SyncJoin.join(folder: folder ?? "", givenKey: givenKey, shared: shared, store: store)
        let location = TerminalText.escaped(joined.hub.location)
        Output.line(joined.madeHub ? "Made a new hub at \(location)." : "Joined the hub at \(location).")
        Output.line("This journal syncs through it as device \(joined.device).")
        Output.line("Run `journal sync` to sync now. To add another machine, run `journal sync key` here and, on that")
        Output.line("machine, `journal sync init --folder PATH --key-file -` with the key.")
    }
}

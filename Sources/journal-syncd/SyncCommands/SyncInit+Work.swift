import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import PostgresHub
import SyncCommandLine

extension SyncInit {
    func carryOut() async throws {
        let givenKey = try keyFile.map { source in
            let label = source == "-" ? "the key on stdin" : source
            return try SyncKey(hex: String(decoding: try FileBytes.readKey(source), as: UTF8.self), source: label)
        }
        let place: any HubPlace
        if let postgres {
            // Asked on the terminal, never on stdin: stdin may be carrying the key.
            place = try PostgresPlace(connectionString: postgres, ask: TerminalPrompt.isAvailable ? TerminalPrompt.secret : nil)
        } else {
            place = FolderPlace(folder: folder ?? "")
        }
        let store = try await global.openStore()
        let joined = try await SyncJoin.join(place, givenKey: givenKey, shared: shared, store: store)
        let location = TerminalText.escaped(joined.location)
        Output.line(joined.madeHub ? "Made a new hub at \(location)." : "Joined the hub at \(location).")
        Output.line("This journal syncs through it as device \(joined.device).")
        if let change = ServiceNetworkDropIn.apply(network: postgres != nil) { Output.line(TerminalText.escaped(change)) }
        let join = postgres != nil ? "--postgres URL" : "--folder PATH"
        Output.line("Run `journal sync` to sync now. To add another machine, run `journal sync key` here and, on that")
        Output.line("machine, `journal sync init \(join) --key-file -` with the key.")
    }
}

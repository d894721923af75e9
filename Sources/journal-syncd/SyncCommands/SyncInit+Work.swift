import Glibc
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
            return try PrintedKey(parsing: String(decoding: try FileBytes.readKey(source), as: UTF8.self), source: label)
        }
        guard let hub else { throw ValidationError("give the hub with one option.") }
        // A new hub in a folder whose parent is missing is more often a typo than a wish: asked on a
        // terminal, refused otherwise unless --create says so.
        if hub.kind == .folder, keyFile == nil, !create {
            let folder = FileSystem.absolute(hub.location)
            let parent = FileSystem.parentFolder(of: folder)
            if !FileSystem.exists(folder), !FileSystem.isFolder(parent) {
                let question = "\(TerminalText.quoted(parent)) does not exist. Make it, and the hub in \(TerminalText.quoted(folder))? [y/N] "
                guard isatty(STDIN_FILENO) == 1, TerminalPrompt.isAvailable, TerminalPrompt.confirm(question) else {
                    throw HubFolderMissing(folder: folder, parent: parent)
                }
            }
        }
        // A password is asked on the terminal, never on stdin: stdin may be carrying the key.
        let place = try KnownHubPlaces(askPassword: TerminalPrompt.isAvailable ? TerminalPrompt.secret : nil)
            .place(hub.kind, location: hub.location)
        let store = try await global.openStore()
        let joined = try await SyncJoin.join(place, givenKey: givenKey, shared: shared, store: store)
        let location = TerminalText.escaped(joined.location)
        Output.line(joined.madeHub ? "Made a new hub at \(location)." : "Joined the hub at \(location).")
        Output.line("This journal syncs through it as device \(joined.device).")
        if let change = ServiceNetworkDropIn.apply(network: place.needsNetwork) { Output.line(TerminalText.escaped(change)) }
        let join = Self.option(for: hub.kind)
        Output.line("Run `journal sync` to sync now. To add another machine, run `journal sync key` here and, on that")
        Output.line("machine, `journal sync init \(join) --key-file -` with the key.")
    }
}

/// A new folder hub whose parent folder is missing, not made without --create (or a yes).
struct HubFolderMissing: JournalFailure {
    let folder: String
    let parent: String

    var kind: FailureKind { .usage }
    var description: String {
        "\(TerminalText.quoted(parent)) does not exist, so no hub was made in \(TerminalText.quoted(folder)): check the path for a "
            + "typo, or give --create to make the folders."
    }
}

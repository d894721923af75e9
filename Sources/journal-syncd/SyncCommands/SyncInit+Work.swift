import Glibc
import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import KnownHubs
import SyncCommandLine

extension SyncInit {
    func carryOut() async throws {
        let givenKey = try keyFile.map { source in
            let label = source == "-" ? "the key on stdin" : source
            return try PrintedKey(parsing: String(decoding: try FileBytes.readKey(source), as: UTF8.self), source: label)
        }
        guard let named else { throw ValidationError("give the hub with --hub HUB.") }
        // A password is asked on the terminal, never on stdin: stdin may be carrying the key.
        let hubs = HubRegistry.known.with(HubAccess(askPassword: TerminalPrompt.isAvailable ? TerminalPrompt.secret : nil))
        let place = try hubs.place(named: named.name, kindOf: named.scheme)
        if shared, !place.canBeSharedByGroup { throw SharedHubNotAFolder(hub: place.location) }
        // A new hub in a folder whose parent is missing is more often a typo than a wish: asked on a
        // terminal, refused otherwise unless --create says so.
        if keyFile == nil, !create, let parent = try await place.missingParent() {
            let question = "\(TerminalText.quoted(parent)) does not exist. Make it, and the hub in \(TerminalText.quoted(place.location))? [y/N] "
            guard isatty(STDIN_FILENO) == 1, TerminalPrompt.isAvailable, TerminalPrompt.confirm(question) else {
                throw HubFolderMissing(folder: place.location, parent: parent)
            }
        }
        let store = try await global.openStore()
        let joined = try await SyncJoin.join(place, givenKey: givenKey, shared: shared, store: store)
        let location = TerminalText.escaped(joined.location)
        Output.line(joined.madeHub ? "Made a new hub at \(location)." : "Joined the hub at \(location).")
        Output.line("This journal syncs through it as device \(joined.device).")
        if let change = ServiceNetworkDropIn.apply(network: place.needsNetwork) { Output.line(TerminalText.escaped(change)) }
        if let warning = place.serviceWarning() { Output.error("journal: " + TerminalText.escaped(warning)) }
        if let moved = try await SettingsMove.run(store) { Output.line(TerminalText.escaped(moved.sentence)) }
        let driver = hubs.driver(for: place.kind)
        let name = driver?.nameOnAnotherMachine(location: joined.location).map(ShellWord.quoted) ?? driver?.nameForm ?? "HUB"
        Output.line("Run `journal sync` to sync now. To add another machine, run `journal sync key` here and, on that")
        Output.line("machine, `journal sync init --hub \(TerminalText.escaped(name)) --key-file -` with the key.")
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

/// `--shared` given for a hub that is not a folder: a folder's group decides who shares it, a
/// server's rights decide that for a server's hub.
struct SharedHubNotAFolder: JournalFailure {
    let hub: String

    var kind: FailureKind { .usage }
    var description: String {
        "--shared makes a folder hub shared by the folder's group; \(TerminalText.escaped(hub)) is not a folder, and its own "
            + "rights decide who shares it. Leave --shared out."
    }
}

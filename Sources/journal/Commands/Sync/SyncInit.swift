import ArgumentParser
import JournalKit
import JournalSync

struct SyncInit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Join this journal to a hub in a folder (a new one, or one another machine made).",
        discussion: """
            A new hub gets this machine's sync key (made now if there is none). Joining an existing hub needs
            its key: run `journal sync key` on a machine that syncs, and pass it here with --key-file FILE, or
            --key-file - to paste it. The key is checked against the hub before anything is written.
            """)

    @Option(name: .long, help: ArgumentHelp("The shared folder (local, NFS, Syncthing, Dropbox).", valueName: "path"))
    var folder: String

    @Option(name: .long, help: ArgumentHelp("A file holding the hub's key, or - for stdin.", valueName: "file"))
    var keyFile: String?

    @Flag(name: .long, help: "Make a new hub shared between users in the folder's group (as git's core.sharedRepository).")
    var shared = false

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let givenKey = try keyFile.map { source in
            let label = source == "-" ? "the key on stdin" : source
            return try SyncKey(hex: String(decoding: try FileBytes.readKey(source), as: UTF8.self), source: label)
        }
        let store = try await global.openStore()
        let joined = try await SyncJoin.join(folder: folder, givenKey: givenKey, shared: shared, store: store)
        let location = TerminalText.escaped(joined.hub.location)
        Output.line(joined.madeHub ? "Made a new hub at \(location)." : "Joined the hub at \(location).")
        Output.line("This journal syncs through it as device \(joined.device).")
        Output.line("Run `journal sync` to sync now. To add another machine, run `journal sync key` here and, on that")
        Output.line("machine, `journal sync init --folder PATH --key-file -` with the key.")
    }
}

import ArgumentParser
import CommandLineSupport
import KnownHubWords
import JournalKit

public struct SyncInit: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Join this journal to a hub: \(KnownHubWords.places) (a new hub, or one another machine made).",
        discussion: "HUB names the hub: " + KnownHubWords.all.map { $0.naming }.joined(separator: "; ") + ". " + """
            A new hub gets this machine's sync key (made now if there is none). Joining an existing hub needs \
            its key: run `journal sync key` on a machine that syncs, and pass it here with --key-file FILE, or \
            --key-file - to paste it. The key is checked against the hub before anything is written. With a key \
            given and no hub there yet (a sync tool still copying it), nothing is made.
            """)

    @Option(name: .long, help: ArgumentHelp("Where the hub is: a folder's path, or a URL.", valueName: "hub"))
    public var hub: String?

    // The options of earlier releases, one a kind: each stands for its kind's URL scheme, so a libpq
    // connection string in its `key=value` form still names a server.
    @Option(name: .long, help: ArgumentHelp("A shared folder (--hub PATH).", valueName: "path", visibility: .hidden))
    public var folder: String?

    @Option(name: .long, help: ArgumentHelp("A PostgreSQL server, as libpq's connection string.", valueName: "url", visibility: .hidden))
    public var postgres: String?

    @Option(name: .long, help: ArgumentHelp("A file holding the hub's key, or - for stdin.", valueName: "file"))
    public var keyFile: String?

    @Flag(name: .long, help: "Make a new folder hub shared between users in the folder's group (as git's core.sharedRepository).")
    public var shared = false

    @Flag(name: .long, help: "Make the hub's folder and the folders above it that are missing (asked on a terminal otherwise).")
    public var create = false

    @OptionGroup public var global: GlobalOptions

    public init() {}

    /// The hub given, and the scheme its option stands for (none for --hub, whose name says it);
    /// nil until `validate()` made sure exactly one option is given.
    public var named: (name: String, scheme: String?)? {
        let given = [hub.map { ($0, nil) }, folder.map { ($0, "file") }, postgres.map { ($0, "postgresql") }].compactMap { $0 }
        return given.count == 1 ? given[0] : nil
    }

    public func validate() throws {
        guard named == nil else { return }
        let given = [hub, folder, postgres].compactMap { $0 }.count
        throw ValidationError(
            given == 0 ? "give the hub with --hub HUB: a folder's path, or a URL (see --help)." : "give one hub, with --hub HUB alone.")
    }

    public var request: SyncRequest { .initialize(self) }
}

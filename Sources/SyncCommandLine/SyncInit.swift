import ArgumentParser
import CommandLineSupport
import JournalKit

public struct SyncInit: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Join this journal to a hub: a folder, or a PostgreSQL server (a new hub, or one another machine made).",
        discussion: """
            A new hub gets this machine's sync key (made now if there is none). Joining an existing hub needs \
            its key: run `journal sync key` on a machine that syncs, and pass it here with --key-file FILE, or \
            --key-file - to paste it. The key is checked against the hub before anything is written. With a key \
            given and no hub there yet (a sync tool still copying it), nothing is made. \
            URL is libpq's: postgresql://user@host:port/dbname?sslmode=verify-full, or host=... dbname=...; the \
            password comes from ~/.pgpass (or PGPASSFILE), or is asked for and kept 0600 beside the sync key.
            """)

    @Option(name: .long, help: ArgumentHelp("A shared folder (local, NFS, Syncthing, Dropbox).", valueName: "path"))
    public var folder: String?

    @Option(name: .long, help: ArgumentHelp("A PostgreSQL server, as libpq's connection string.", valueName: "url"))
    public var postgres: String?

    @Option(name: .long, help: ArgumentHelp("A file holding the hub's key, or - for stdin.", valueName: "file"))
    public var keyFile: String?

    @Flag(name: .long, help: "Make a new folder hub shared between users in the folder's group (as git's core.sharedRepository).")
    public var shared = false

    @Flag(name: .long, help: "Make the hub's folder and the folders above it that are missing (asked on a terminal otherwise).")
    public var create = false

    @OptionGroup public var global: GlobalOptions

    public init() {}

    /// What the option naming a hub of `kind` holds: one option a kind, a compile error here until a
    /// new kind has its own.
    public func location(of kind: HubKind) -> String? {
        switch kind {
        case .folder: folder
        case .postgres: postgres
        }
    }

    /// The option naming a hub of `kind`, as help and advice write it.
    public static func option(for kind: HubKind) -> String {
        switch kind {
        case .folder: "--folder PATH"
        case .postgres: "--postgres URL"
        }
    }

    /// The hub given, by its kind; nil until `validate()` made sure exactly one is.
    public var hub: (kind: HubKind, location: String)? {
        let given = HubKind.allCases.compactMap { kind in location(of: kind).map { (kind: kind, location: $0) } }
        return given.count == 1 ? given[0] : nil
    }

    public func validate() throws {
        guard let hub else {
            let options = HubKind.allCases.map(Self.option(for:)).joined(separator: " or ")
            throw ValidationError("give the hub with \(options) (one of them).")
        }
        if shared && hub.kind != .folder { throw ValidationError("--shared is for a folder hub; a server's rights decide who shares it.") }
    }

    public var request: SyncRequest { .initialize(self) }
}

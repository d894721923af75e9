import ArgumentParser
import CommandLineSupport

public struct SyncRevoke: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Shut a lost or sold machine out of the hub.",
        discussion: """
            Replaces the hub's key with one wrapped for each remaining device only: the revoked machine cannot \
            read anything published from now on, and every device refuses what it publishes from now on. It is \
            told so, plainly, when it next syncs. On a PostgreSQL hub, this also prints the SQL that takes the \
            machine's role off the server, for when each machine has a role of its own.
            """)

    @OptionGroup public var global: GlobalOptions

    @Argument(help: "The device's name, or its id (the first 8 characters are enough), as `journal sync devices` shows it.")
    public var device: String

    public init() {}

    public var request: SyncRequest { .revoke(self) }
}

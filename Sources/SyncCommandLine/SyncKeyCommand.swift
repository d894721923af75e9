import ArgumentParser
import CommandLineSupport

public struct SyncKeyCommand: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print the sync key, to carry to your next machine (keep it secret: it opens the hub).",
        discussion: """
            The key is printed as JK2- and 21 groups of 4 letters and digits: the first group names the hub \
            (as `journal sync status` does), the next 13 hold the key, 6 more an invitation this device vouches \
            for the first machine to join with, and the last checks the rest, so a mistyped, missing or extra \
            character is refused when the key is given to `journal sync init --key-file`. Each printing carries an \
            invitation of its own: print one per machine.
            """)

    @OptionGroup public var global: GlobalOptions
    @OptionGroup public var output: OutputOptions

    public init() {}

    public var request: SyncRequest { .key(self) }
}

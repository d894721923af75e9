import ArgumentParser
import CommandLineSupport

public struct SyncKeyCommand: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print the sync key, to carry to your next machine (keep it secret: it opens the hub).",
        discussion: """
            The key is printed as JK1- and 15 groups of 4 letters and digits: the first group names the hub \
            (as `journal sync status` does), the last checks the rest, so a mistyped, missing or extra \
            character is refused when the key is given to `journal sync init --key-file`.
            """)

    @OptionGroup public var global: GlobalOptions

    public init() {}

    public var request: SyncRequest { .key(self) }
}

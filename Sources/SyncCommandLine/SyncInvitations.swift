import ArgumentParser
import CommandLineSupport

public struct SyncInvitations: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "invitations",
        abstract: "List the invitations this machine printed that are still open, or withdraw one: --withdraw ID, --withdraw all.",
        discussion: """
            Each key `journal sync key` prints carries an invitation: the first machine that joins with it is \
            vouched for by this one, and so gets every new key. An invitation ends 7 days after it is printed \
            (or as --expires said), when a machine joins with it, or when the hub's key is replaced. Withdraw \
            one printed for a machine that will not join, or written where someone else may have read it.
            """)

    @Option(name: .long, help: ArgumentHelp("End the invitation with this id (as listed), or all of them.", valueName: "id"))
    public var withdraw: String?

    @OptionGroup public var global: GlobalOptions
    @OptionGroup public var output: OutputOptions

    public init() {}

    public var request: SyncRequest { .invitations(self) }
}

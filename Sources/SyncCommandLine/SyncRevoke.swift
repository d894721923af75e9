import ArgumentParser
import CommandLineSupport
import KnownHubWords

public struct SyncRevoke: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Shut a lost or sold machine out of the hub.",
        discussion: """
            Replaces the hub's key with one wrapped for each remaining member only: the revoked machine cannot \
            read anything published from now on, and every device refuses what it publishes from now on, under \
            its own name or any other. It is told so, plainly, when it next syncs. The new key goes to the devices \
            this one reaches through the members' vouches (`journal sync devices` shows them); so every device \
            only the revoked machine vouched for, which it could have made up, is shut out with it, and so is a \
            device that joined with the key alone (not with a key `journal sync key` printed), which anyone who \
            held the key could have made: name it with --keep if it is yours.
            """ + KnownHubWords.all.compactMap { $0.onRevoke }.map { " " + $0 }.joined())

    @OptionGroup public var global: GlobalOptions

    @Argument(
        help: "The device's name, or its id (the first 8 characters are enough), as `journal sync devices` shows it.",
        completion: .custom(CompletionWords.deviceNames))
    public var device: String

    @Option(
        name: .customLong("keep"), help: "A device to keep that no member vouches for (repeat for several): you vouch for it.",
        completion: .custom(CompletionWords.deviceNames))
    public var keep: [String] = []

    @Flag(name: [.short, .long], help: "Revoke without asking (on a terminal, revoke asks first, naming the device).")
    public var yes = false

    public init() {}

    public var request: SyncRequest { .revoke(self) }
}

import ArgumentParser
import CommandLineSupport

public struct SyncRotateKey: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "rotate-key",
        abstract: "Replace the hub's key (a key that leaked): the others take the new one up at their next sync.",
        discussion: """
            The new key is wrapped for each device of the hub with that device's own key, so nobody carries it \
            around: every machine picks it up when it next syncs. What was published before stays readable to \
            the devices of the hub; a copy of the old key opens nothing published from now on, and joining with \
            it is refused. `journal sync key` then prints the new key, for a machine that joins later. A device \
            that joined with the key alone (not with a key `journal sync key` printed) is left out, as whoever \
            took the key could have made it: name it with --keep if it is yours.
            """)

    @OptionGroup public var global: GlobalOptions

    @Option(
        name: .customLong("keep"), help: "A device to keep that no member vouches for (repeat for several): you vouch for it.",
        completion: .custom(CompletionWords.deviceNames))
    public var keep: [String] = []

    public init() {}

    public var request: SyncRequest { .rotateKey(self) }
}

import ArgumentParser
import CommandLineSupport

public struct SyncDevices: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "The devices of the hub: their names, this one marked, and when each last published and synced.",
        discussion: """
            Each device keeps a small card on the hub, signed by itself and encrypted like everything there: its \
            name (`journal sync rename`), its public keys and when it last published and synced. A device whose \
            journal predates cards is listed without a name until it is updated.
            """)

    @OptionGroup public var global: GlobalOptions
    @OptionGroup public var output: OutputOptions

    public init() {}

    public var request: SyncRequest { .devices(self) }
}

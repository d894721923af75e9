import ArgumentParser
import CommandLineSupport

public struct SyncStatus: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "The hub, this device, what waits to go up, the last sync, and the devices seen.")

    @OptionGroup public var global: GlobalOptions
    @OptionGroup public var output: OutputOptions

    public init() {}

    public var request: SyncRequest { .status(self) }
}

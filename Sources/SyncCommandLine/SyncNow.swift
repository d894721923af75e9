import ArgumentParser
import CommandLineSupport

public struct SyncNow: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Publish this journal's changes and apply the other machines' (what `journal sync` does).")

    @OptionGroup public var global: GlobalOptions
    @OptionGroup public var output: OutputOptions

    public init() {}

    public var request: SyncRequest { .now(self) }
}

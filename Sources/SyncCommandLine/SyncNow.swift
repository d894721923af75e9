import ArgumentParser
import CommandLineSupport

public struct SyncNow: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Publish this journal's changes and apply the other machines' (what `journal sync` does).")

    @OptionGroup public var global: GlobalOptions
    @OptionGroup public var output: OutputOptions

    public init() {}

    public func run() async throws { try await SyncCommandLine.perform(self) }
}

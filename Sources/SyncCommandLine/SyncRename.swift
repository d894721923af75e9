import ArgumentParser
import CommandLineSupport

public struct SyncRename: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Give this device a name of your choosing (the host name until then).",
        discussion: """
            The name is what `journal sync devices` and `journal sync status` show on every machine: up to 40 \
            letters, digits, marks, punctuation or symbols of any script, with single spaces between words. \
            Two devices of one hub cannot share a name.
            """)

    @OptionGroup public var global: GlobalOptions
    @OptionGroup public var output: OutputOptions

    @Argument(help: "The new name, such as \"work laptop\".")
    public var name: String

    public init() {}

    public var request: SyncRequest { .rename(self) }
}

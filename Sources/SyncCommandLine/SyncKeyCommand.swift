import ArgumentParser

public struct SyncKeyCommand: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print the sync key, to carry to your next machine (keep it secret: it opens the hub).")

    public init() {}

    public var request: SyncRequest { .key(self) }
}

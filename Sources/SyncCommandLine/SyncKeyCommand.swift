import ArgumentParser

public struct SyncKeyCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print the sync key, to carry to your next machine (keep it secret: it opens the hub).")

    public init() {}

    public func run() async throws { try await SyncCommandLine.perform(self) }
}

import ArgumentParser
import CommandLineSupport

public struct SyncNewDevice: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "new-device",
        abstract: "Give this journal a device id of its own, after copying its database from another machine.",
        discussion: "Its own changes are published again under the new id at the next sync; nothing is lost.")

    @OptionGroup public var global: GlobalOptions

    public init() {}

    public var request: SyncRequest { .newDevice(self) }
}

import ArgumentParser

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep this journal the same on all your machines, through a shared folder.",
        discussion: """
            Start with `journal sync init --folder PATH` on one machine, then on each other machine with the
            key that `journal sync key` prints there. Everything on the hub is end-to-end encrypted.
            """,
        subcommands: [SyncNow.self, SyncInit.self, SyncKeyCommand.self, SyncStatus.self, SyncNewDevice.self],
        defaultSubcommand: SyncNow.self)
}

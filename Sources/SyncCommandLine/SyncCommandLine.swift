import ArgumentParser

/// The grammar of `journal sync ...`, shared by the two programs that know it: `journal`, whose help
/// and completions cover it and which hands the command line over, and the sync program (the
/// daemon's binary, run as `journal-sync`), which does the work. The everyday binary thus links no
/// crypto and no network driver, as git runs `git-remote-https` for its remotes.
public enum SyncCommandLine {
    /// What runs a parsed sync command; each program sets it before parsing.
    nonisolated(unsafe) public static var perform: (any AsyncParsableCommand) async throws -> Void = { _ in }
}

/// `journal sync`: its subcommands, `now` by default.
public struct SyncCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep this journal the same on all your machines, through a shared folder or a PostgreSQL server.",
        discussion: """
            Start with `journal sync init --folder PATH` (or --postgres URL) on one machine, then on each other
            machine with the key that `journal sync key` prints there. Everything on the hub is end-to-end
            encrypted.
            """,
        subcommands: [SyncNow.self, SyncInit.self, SyncKeyCommand.self, SyncStatus.self, SyncNewDevice.self],
        defaultSubcommand: SyncNow.self)

    public init() {}
}

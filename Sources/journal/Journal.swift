import ArgumentParser
import CommandLineSupport
import SyncCommandLine
import JournalKit

@main
struct Journal: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "A caffeine and drink journal for the terminal.",
        discussion: "The journal is a SQLite file (see `journal path`); `journal sql` and sqlite3 can read it.",
        subcommands: [
            Add.self, List.self, Remove.self, Undo.self, Edit.self, Status.self, Stats.self, Drinks.self, SQL.self,
            Export.self, Import.self, Backup.self, Path.self, SyncCommand.self, Config.self,
        ])

    @OptionGroup var global: GlobalOptions

    /// Runs the command, turning every error into a message on stderr and an exit status: 64 for bad
    /// usage, 65 for bad data, 1 for anything else. Never a stack trace.
    static func main() async {
        SyncCommandLine.perform = { _ in try SyncHandoff.perform() }
        await runAsMain(program: "journal", executor: Executors.main)
    }
}

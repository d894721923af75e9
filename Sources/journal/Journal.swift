import ArgumentParser
import CommandLineSupport
import Dispatch
import SyncCommandLine
import JournalKit

import Glibc

struct Journal: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "A caffeine and drink journal for the terminal.",
        discussion: "The journal is a SQLite file (see `journal path`); `journal sql` and sqlite3 can read it.",
        version: ProgramVersion.line(for: "journal"),
        subcommands: [
            Add.self, List.self, Remove.self, Undo.self, Redo.self, Edit.self, Status.self, Stats.self, Drinks.self, SQL.self,
            Export.self, Import.self, Backup.self, Path.self, SyncCommand.self, Config.self, Profile.self, Sleep.self,
        ])

    @OptionGroup var global: GlobalOptions

}

/// The program: the everyday commands' usual command lines go the fast path, synchronously on this
/// thread; everything else (help, completions, errors, every other command) goes to
/// swift-argument-parser, as an async program. Either way every error becomes a message on stderr and
/// an exit status: 64 for bad usage, 65 for bad data, 78 for a setup to fix, 1 for anything else.
@main
enum JournalProgram {
    static func main() {
        // `journal -v` and `journal version`, as git's: what --version says.
        if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "-v" || CommandLine.arguments[1] == "version" {
            CommandMain.runAndExit(program: "journal") { Output.line(ProgramVersion.line(for: "journal")) }
        }
        if CommandMain.argumentsAreText, let request = FastPath.request(Array(CommandLine.arguments.dropFirst())) {
            CommandMain.runAndExit(program: "journal") { try request.run() }
        }
        // The async program, started only when the full parser is needed: on the main actor, whose
        // queue dispatchMain() runs. What another program carries out is handed to it, parsed.
        Task { @MainActor in
            await Journal.runAsMain(program: "journal", executor: Executors.main) { command in
                if SyncRequest(command) != nil { try Handoff.sync() }
                if let command = command as? Import, command.origin.isForTheImporter { try Handoff.importer() }
                return false
            }
            exit(0)
        }
        dispatchMain()
    }
}

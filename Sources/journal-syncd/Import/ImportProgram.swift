import AppleHealth
import ArgumentParser
import CommandLineSupport
import JournalKit

/// `journal import --from apple-health`, carried out: `journal` parses the command line and hands it
/// to this binary under the name `journal-import`, to be parsed again with the same grammar
/// (`Import`). Here, not in the everyday binary, as the zip library brings Foundation, which this
/// binary links already for the hub drivers: one copy of it is installed, not two.
struct ImportProgram: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "journal", subcommands: [Import.self])

    @OptionGroup var global: GlobalOptions

    /// The name `journal` runs this binary under for an import.
    static let name = "journal-import"

    /// On the main actor, as `SyncProgram.start` is, and for the same reason.
    @MainActor static func start() async {
        await runAsMain(program: "journal", executor: Executors.main) { command in
            guard let command = command as? Import else { return false }
            switch command.origin {
            case .journal, .sleepCSV: return false
            case .appleHealth:
                if let mismatch = command.mismatch() { throw mismatch }
                try await AppleHealthImport(command: command).run()
            }
            return true
        }
    }
}

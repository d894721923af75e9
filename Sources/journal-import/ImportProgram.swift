import AppleHealth
import ArgumentParser
import CommandLineSupport
import JournalKit

/// `journal import --from apple-health`, carried out: `journal` parses the command line and hands it
/// here under the name `journal-import`, to be parsed again with the same grammar (`Import`). This
/// program links the zip library, and Foundation with it, which the everyday binary does not.
@main
struct ImportProgram: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "journal", subcommands: [Import.self])

    @OptionGroup var global: GlobalOptions

    static func main() async {
        await runAsMain(program: "journal", executor: Executors.main) { command in
            guard let command = command as? Import else { return false }
            switch command.from {
            case .journal: return false
            case .appleHealth: try await AppleHealthImport(command: command).run()
            }
            return true
        }
    }
}

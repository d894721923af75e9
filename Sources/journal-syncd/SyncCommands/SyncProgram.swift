import ArgumentParser
import CommandLineSupport
import SyncCommandLine

/// `journal sync ...` carried out. `journal` parses it (so its help and completions cover it) and then
/// hands its command line to this binary under the name `journal-sync`, which parses it again with the
/// same grammar and does the work: only this program links the crypto and the hub drivers.
struct SyncProgram: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "journal", subcommands: [SyncCommand.self])

    @OptionGroup var global: GlobalOptions

    /// The name `journal` runs this binary under for a sync command.
    static let name = "journal-sync"

    static func start() async {
        SyncCommandLine.perform = { command in
            switch command {
            case let command as SyncNow: try await command.carryOut()
            case let command as SyncInit: try await command.carryOut()
            case let command as SyncKeyCommand: try await command.carryOut()
            case let command as SyncStatus: try await command.carryOut()
            case let command as SyncNewDevice: try await command.carryOut()
            default: break
            }
        }
        await runAsMain(program: "journal", executor: Executors.main)
    }
}

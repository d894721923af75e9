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

    /// On the main actor, as `main` and `runAsMain` are: a nonisolated async function in between would
    /// hop to Swift's global executor, which starts libdispatch's workers, its event loop (an eventfd
    /// it traps without) and its once-a-second pool monitor.
    @MainActor static func start() async {
        SyncCommandLine.perform = carryOut
        await runAsMain(program: "journal", executor: Executors.main)
    }

    /// Runs under `runAsMain`'s executor preference, on the commands' thread.
    private static func carryOut(_ command: any AsyncParsableCommand) async throws {
        switch command {
        case let command as SyncNow: try await command.carryOut()
        case let command as SyncInit: try await command.carryOut()
        case let command as SyncKeyCommand: try await command.carryOut()
        case let command as SyncStatus: try await command.carryOut()
        case let command as SyncNewDevice: try await command.carryOut()
        default: break
        }
    }
}

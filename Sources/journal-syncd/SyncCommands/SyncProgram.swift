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
        await runAsMain(program: "journal", executor: Executors.main) { command in
            guard let request = SyncRequest(command) else { return false }
            try await carryOut(request)
            return true
        }
    }

    /// Every sync command, carried out on the commands' thread (`runAsMain`'s executor preference).
    private static func carryOut(_ request: SyncRequest) async throws {
        switch request {
        case .now(let command): try await command.carryOut()
        case .initialize(let command): try await command.carryOut()
        case .key(let command): try await command.carryOut()
        case .invitations(let command): try await command.carryOut()
        case .status(let command): try await command.carryOut()
        case .newDevice(let command): try await command.carryOut()
        case .hubKind(let command): try await HubKindCommand.carryOut(command)
        case .devices(let command): try await command.carryOut()
        case .rename(let command): try await command.carryOut()
        case .rotateKey(let command): try await command.carryOut()
        case .revoke(let command): try await command.carryOut()
        }
    }
}

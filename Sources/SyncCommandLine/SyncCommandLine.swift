import ArgumentParser
import CommandLineSupport
import KnownHubWords

/// The grammar of `journal sync ...`, shared by the two programs that know it: `journal`, whose help
/// and completions cover it and which hands the command line over, and the sync program (the
/// daemon's binary, run as `journal-sync`), which does the work. The everyday binary thus links no
/// crypto and no network driver, as git runs `git-remote-https` for its remotes.
///
/// A parsed sync command is one `SyncRequest`, over which the sync program switches: a subcommand
/// added here is a compile error there until it is carried out.
public enum SyncRequest: Sendable {
    case now(SyncNow)
    case initialize(SyncInit)
    case key(SyncKeyCommand)
    case invitations(SyncInvitations)
    case status(SyncStatus)
    case newDevice(SyncNewDevice)
    /// A subcommand a kind of hub brings (`HubKindWords.subcommands`).
    case hubKind(any HubKindSubcommand)
    case devices(SyncDevices)
    case rename(SyncRename)
    case rotateKey(SyncRotateKey)
    case revoke(SyncRevoke)
}

/// A subcommand of `journal sync`. A program carries it out through its `request`, never through
/// `run()`, which is reached only by a program that does not route it: a failure then, never a
/// command that silently does nothing.
public protocol SyncSubcommand: AsyncParsableCommand {
    var request: SyncRequest { get }
}

extension SyncRequest {
    /// The request `command` makes, when it is a sync command: one of this grammar's, or a kind's own.
    public init?(_ command: any ParsableCommand) {
        if let command = command as? any SyncSubcommand {
            self = command.request
        } else if let command = command as? any HubKindSubcommand {
            self = .hubKind(command)
        } else {
            return nil
        }
    }
}

extension SyncSubcommand {
    public func run() async throws { throw UnroutedCommand(command: "sync " + Self._commandName) }
}

/// `journal sync`: its subcommands, `now` by default.
public struct SyncCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep this journal the same on all your machines, through a hub: \(KnownHubWords.places).",
        discussion: """
            Start with `journal sync init --hub HUB` (a folder's path, or a server's URL) on one machine, then on each other \
            machine with the key that `journal sync key` prints there. Everything on the hub is end-to-end \
            encrypted.
            """,
        subcommands: [
            SyncNow.self, SyncInit.self, SyncKeyCommand.self, SyncInvitations.self, SyncStatus.self, SyncDevices.self, SyncRename.self, SyncRotateKey.self, SyncRevoke.self,
            SyncNewDevice.self,
        ] + KnownHubWords.subcommands,
        defaultSubcommand: SyncNow.self)

    public init() {}
}

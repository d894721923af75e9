import ArgumentParser
import CommandLineSupport
import SyncCommandLine
import Testing
import TestSupport

@testable import journal

/// Commands whose grammar `journal` shares with the program that carries them out: each parses to a
/// value that program switches over, never to a command whose `run()` would do nothing.
@Suite(.onTestThreads) struct SharedCommandTests {
    @Test func everySyncSubcommandIsCarriedOutThroughItsRequest() throws {
        let subcommands = SyncCommand.configuration.subcommands
        #expect(!subcommands.isEmpty)
        for subcommand in subcommands {
            #expect(
                subcommand is any SyncSubcommand.Type || subcommand is any HubKindSubcommand.Type,
                "\(subcommand) is not routed to the sync program")
        }
    }

    @Test(arguments: [["sync"], ["sync", "now"], ["sync", "init", "--folder", "/tmp/hub"], ["sync", "key"], ["sync", "status"], ["sync", "new-device"], ["sync", "migrate-sql"]])
    func aParsedSyncCommandLineIsARequest(_ arguments: [String]) throws {
        let command = try Journal.parseAsRoot(arguments)
        let request = try #require(SyncRequest(command))
        switch (request, arguments.dropFirst().first ?? "now") {
        case (.now, "now"), (.initialize, "init"), (.key, "key"), (.status, "status"), (.newDevice, "new-device"),
            (.hubKind, "migrate-sql"):
            break
        default: Issue.record("\(arguments) parsed as \(request)")
        }
    }

    /// A program that does not route a sync command says so; it never exits 0 having done nothing.
    @Test func anUnroutedSyncCommandIsAFailure() async throws {
        var command = try #require(try Journal.parseAsRoot(["sync", "status"]) as? SyncStatus)
        await #expect(throws: UnroutedCommand.self) { try await command.run() }
    }
}

import CommandLineSupport
import JournalKit
import JournalSync
import SyncCommandLine

/// A kind's own subcommand (`HubKindSubcommand`) carried out on the journal's hub, whatever its kind.
enum HubKindCommand {
    static func carryOut(_ command: any HubKindSubcommand) async throws {
        switch command.action {
        case .printMigrationScript: try await printMigrationScript(command.global)
        }
    }

    private static func printMigrationScript(_ global: GlobalOptions) async throws {
        let (place, _) = try await SyncSetup.place(of: try await global.openStore(), hubs: .known)
        // Up to date, it still says so as SQL: piped to psql, it runs nothing.
        let script = try await place.migrationScript()
            ?? "-- The hub \(place.location) is up to date: there is nothing to run.\n"
        // Its names come from the server (the owner's role): on a terminal, nothing in them acts.
        Output.line(Output.isTerminal ? TerminalText.escapedKeepingLines(script) : script, terminator: "")
    }
}

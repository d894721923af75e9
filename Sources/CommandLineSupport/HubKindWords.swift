import ArgumentParser

/// What a kind of hub says on the command line: how a person names one, where its login comes from,
/// what more a command does on it, and its own subcommands. Each kind's words live with it (its
/// `...HubWords` module, which `journal` links without the kind's driver) and are registered once
/// (`KnownHubWords`): the grammar of `journal sync` names no kind.
public protocol HubKindWords {
    /// The kind as a list of places names it: "a PostgreSQL server".
    static var place: String { get }
    /// How `--hub` names a hub of this kind, and where its login comes from: a clause of `sync init`'s help.
    static var naming: String { get }
    /// What `sync revoke` does more on a hub of this kind, as a sentence; nil for nothing more.
    static var onRevoke: String? { get }
    /// The kind's own subcommands of `journal sync`.
    static var subcommands: [any HubKindSubcommand.Type] { get }
}

extension HubKindWords {
    public static var onRevoke: String? { nil }
    public static var subcommands: [any HubKindSubcommand.Type] { [] }
}

/// A subcommand of `journal sync` that a kind of hub brings. The sync program carries out its
/// `action` on the journal's hub, whatever its kind (a hub that has nothing to do says so).
public protocol HubKindSubcommand: AsyncParsableCommand, Sendable {
    var global: GlobalOptions { get }
    var action: HubKindAction { get }
}

/// What a kind's subcommand asks of the journal's hub.
public enum HubKindAction: Sendable {
    /// Print the SQL that brings a handed-over server's schema up to this journal's version.
    case printMigrationScript
}

extension HubKindSubcommand {
    public func run() async throws { throw UnroutedCommand(command: "sync " + Self._commandName) }
}

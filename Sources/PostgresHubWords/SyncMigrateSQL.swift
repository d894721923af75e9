import ArgumentParser
import CommandLineSupport

/// `journal sync migrate-sql`: what a database administrator runs once the hub's schema was handed to
/// another role.
public struct SyncMigrateSQL: HubKindSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "migrate-sql",
        abstract: "Print the SQL that brings a handed-over PostgreSQL hub's schema up to this journal's version.",
        discussion: """
            Once a database administrator has handed the schema journal_hub to another role, the journal's own \
            role can no longer change it, and a journal that needs a newer schema says so. This prints what the \
            administrator runs, as a role that may act as the schema's owner: psql -v ON_ERROR_STOP=1 -d DATABASE \
            -f FILE. It prints nothing when the hub is up to date, and reads nothing but the schema's version.
            """)

    @OptionGroup public var global: GlobalOptions

    public init() {}

    public var action: HubKindAction { .printMigrationScript }
}

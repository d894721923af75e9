import CommandLineSupport

/// A PostgreSQL hub on the command line.
public enum PostgresHubWords: HubKindWords {
    public static let place = "a PostgreSQL server"
    public static let naming = """
        a PostgreSQL server by libpq's URL, postgresql://USER@HOST:PORT/DATABASE?sslmode=verify-full, its \
        password from ~/.pgpass (or PGPASSFILE), or asked for and kept 0600 beside the sync key
        """
    public static let onRevoke: String? = """
        On a PostgreSQL hub, this also prints the SQL that takes the machine's role off the server, for when each \
        machine has a role of its own.
        """
    public static let subcommands: [any HubKindSubcommand.Type] = [SyncMigrateSQL.self]
}

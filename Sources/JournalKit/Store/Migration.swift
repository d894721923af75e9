/// One schema change, from a `Migrations/v0001_what.sql` file embedded at build time (the journal's;
/// a PostgreSQL hub's schema has its own, in `Migrations/postgres/`).
public struct Migration: Sendable {
    public let version: Int64
    public let name: String
    public let sql: String

    public init(version: Int64, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The journal's migrations.
    static var embedded: [Migration] { embeddedMigrations }

    /// The highest schema version this binary knows.
    static var latestVersion: Int64 { embedded.last?.version ?? 0 }
}

/// Brings a database's schema up to date: each pending migration runs in the same IMMEDIATE
/// transaction as the `user_version` bump, so a crash leaves either the old schema or the new one.
enum Migrator {
    /// Applies what `migrations` has beyond the database's `user_version`. `onCreate` runs in the
    /// transaction that creates the schema, to fill in what a new journal needs (its device id).
    static func migrate(
        _ connection: SQLiteConnection, path: String, migrations: [Migration] = Migration.embedded,
        onCreate: (SQLiteConnection) throws -> Void
    ) throws {
        let latest = migrations.last?.version ?? 0
        // The common case, an up-to-date journal, costs one read and takes no lock.
        guard try currentVersion(connection, path: path, latest: latest) < latest else { return }
        try connection.immediateTransaction {
            // Read again under the write lock: another process may have migrated meanwhile.
            let current = try currentVersion(connection, path: path, latest: latest)
            for migration in migrations where migration.version > current {
                try connection.executeScript(migration.sql)
            }
            if current == 0 { try onCreate(connection) }
            try connection.executeScript("PRAGMA user_version = \(latest)")
        }
    }

    /// The database's schema version; a newer one than this binary knows is refused.
    static func currentVersion(_ connection: SQLiteConnection, path: String, latest: Int64) throws -> Int64 {
        let version = try connection.queryInteger("PRAGMA user_version") ?? 0
        guard version <= latest else {
            throw JournalFileError.newerSchema(path: path, version: version, supported: latest)
        }
        return version
    }
}

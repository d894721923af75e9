import JournalKit
import JournalSync
import PostgresNIO

/// The hub's schema on the server, `journal_hub`, made and upgraded by the migrations in
/// `Migrations/postgres/`, each in one transaction with its version, under a lock that keeps two
/// machines from migrating at once.
enum ServerSchema {
    static let name = "journal_hub"
    /// The channel the server rings on after a segment is written.
    static let channel = "journal_hub"

    static var latestVersion: Int64 { embeddedMigrations.last?.version ?? 0 }

    /// Whatever the role may see of the schema: whether it exists, and whether the role may use it.
    static func presence(_ connection: PostgresConnection) async throws -> (exists: Bool, usable: Bool) {
        let rows = try await connection.query(
            "SELECT s.oid IS NOT NULL, s.oid IS NOT NULL AND has_schema_privilege(s.oid, 'USAGE') FROM (SELECT to_regnamespace('journal_hub')::oid AS oid) s",
            logger: PostgresConnector.quiet)
        for try await (exists, usable) in rows.decode((Bool, Bool).self) { return (exists, usable) }
        return (false, false)
    }

    /// The schema's version, refused when newer than this journal knows.
    static func version(_ connection: PostgresConnection, location: PostgresLocation) async throws -> Int64 {
        var version: Int64 = 0
        for try await value in try await connection.query("SELECT version FROM journal_hub.schema_version", logger: PostgresConnector.quiet)
            .decode(Int64.self)
        {
            version = value
        }
        guard version <= latestVersion else {
            throw PostgresHubError.schemaTooNew(server: location.server, version: version, supported: latestVersion)
        }
        return version
    }

    /// Runs the migrations past `current` in one transaction. With `current` 0, it makes the schema,
    /// and `fill` writes the hub's first rows in the same transaction.
    /// `migrations` are this journal's, but for tests of a migration to come.
    static func migrate(
        _ connection: PostgresConnection, from current: Int64, location: PostgresLocation,
        migrations: [Migration] = embeddedMigrations, fill: @Sendable (PostgresConnection) async throws -> Void = { _ in }
    ) async throws {
        let latest = migrations.last?.version ?? 0
        try await connection.withTransaction(logger: PostgresConnector.quiet) { connection in
            // One machine migrates at a time; the others then find the work done.
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext('journal_hub'))", logger: PostgresConnector.quiet)
            let now = try await presence(connection).exists ? try await version(connection, location: location) : 0
            guard now == current else {
                if current == 0 { throw PostgresHubError.madeMeanwhile(database: location.database, server: location.server) }
                return
            }
            for migration in migrations where migration.version > current {
                for statement in SQLStatements.split(migration.sql) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: PostgresConnector.quiet)
                }
            }
            if current == 0 {
                try await connection.query(
                    "INSERT INTO journal_hub.schema_version (version) VALUES (\(latest))", logger: PostgresConnector.quiet)
                try await fill(connection)
            } else {
                try await connection.query(
                    "UPDATE journal_hub.schema_version SET version = \(latest)", logger: PostgresConnector.quiet)
            }
        }
    }

    /// The rights the role lacks to sync through the hub, as a refusal naming the first one.
    static func checkRights(_ connection: PostgresConnection, location: PostgresLocation) async throws {
        let needed: [(table: String, right: String)] = [
            ("schema_version", "SELECT"), ("hub", "SELECT"), ("segments", "SELECT"), ("segments", "INSERT"),
        ]
        let columns = needed.map { "has_table_privilege('journal_hub.\($0.table)', '\($0.right)')" }.joined(separator: ", ")
        let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT ARRAY[\(columns)]"), logger: PostgresConnector.quiet)
        for try await granted in rows.decode([Bool].self) {
            for (index, need) in needed.enumerated() where index < granted.count && !granted[index] {
                throw PostgresHubError.missingRight(
                    user: location.user, right: "\(need.right) on journal_hub.\(need.table)",
                    grant: "GRANT \(need.right) ON journal_hub.\(need.table) TO \(quoted(location.user));")
            }
        }
    }

    /// The role may make the schema: CREATE on the database.
    static func checkCanCreate(_ connection: PostgresConnection, location: PostgresLocation) async throws {
        let rows = try await connection.query("SELECT has_database_privilege(current_database(), 'CREATE')", logger: PostgresConnector.quiet)
        for try await granted in rows.decode(Bool.self) where !granted {
            throw PostgresHubError.missingRight(
                user: location.user, right: "CREATE on the database \(location.database) (to make the hub's schema)",
                grant: "GRANT CREATE ON DATABASE \(quoted(location.database)) TO \(quoted(location.user));")
        }
    }

    /// An identifier in double quotes, for the SQL a message suggests.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingQuotes() + "\""
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        var quoted = ""
        for character in self {
            if character == "\"" { quoted.append("\"") }
            quoted.append(character)
        }
        return quoted
    }
}

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
        let rows = try await connection.rows(
            "SELECT s.oid IS NOT NULL, s.oid IS NOT NULL AND has_schema_privilege(s.oid, 'USAGE') FROM (SELECT to_regnamespace('journal_hub')::oid AS oid) s"
        ) { try $0.decode((Bool, Bool).self) }
        return rows.first ?? (false, false)
    }

    /// The schema's version, refused when newer than `latest`, the last this journal knows.
    static func version(_ connection: PostgresConnection, location: PostgresLocation, latest: Int64 = latestVersion) async throws -> Int64 {
        let version = try await connection.rows("SELECT version FROM journal_hub.schema_version") { try $0.decode(Int64.self) }.last ?? 0
        guard version <= latest else {
            throw PostgresHubError.schemaTooNew(server: location.server, version: version, supported: latest)
        }
        return version
    }

    /// The role that owns the schema, and whether the connection's role acts as it (is it, or a
    /// member of it): only the owner can change the schema once a DBA has handed it over.
    static func owner(_ connection: PostgresConnection) async throws -> (name: String, isUs: Bool) {
        let rows = try await connection.rows(
            "SELECT pg_get_userbyid(nspowner)::text, pg_has_role(nspowner, 'USAGE') FROM pg_namespace WHERE nspname = 'journal_hub'"
        ) { try $0.decode((String, Bool).self) }
        return rows.first ?? ("", false)
    }

    /// The statements that take the schema from version `current` to the last of `migrations`, in
    /// order: what `migrate` runs, and what `migrationScript` gives the owner to run.
    static func statements(from current: Int64, migrations: [Migration]) -> [String] {
        migrations.filter { $0.version > current }.flatMap { SQLStatements.split($0.sql) }
    }

    /// The SQL that the schema's `owner` runs (in psql, as a role that may act as the owner) to bring
    /// a handed-over schema from `current` to the last of `migrations`, and that gives `user` the
    /// rights syncing needs afterwards. It refuses to run on a schema at another version, so a script
    /// printed before another machine migrated does nothing twice.
    static func migrationScript(from current: Int64, migrations: [Migration], owner: String, user: String) -> String {
        let latest = migrations.last?.version ?? 0
        var lines = [
            "-- journal_hub: schema version \(current) to \(latest). Run it in the hub's database, for example",
            "-- psql -v ON_ERROR_STOP=1 -d DATABASE -f THIS_FILE, as a role that may act as \(quoted(owner)).",
            "BEGIN;",
            "SET LOCAL ROLE \(quoted(owner));",
            "SELECT pg_advisory_xact_lock(hashtext('journal_hub'));",
            "DO $journal$ BEGIN IF (SELECT version FROM journal_hub.schema_version) <> \(current) THEN "
                + "RAISE EXCEPTION 'journal_hub is no longer at schema version \(current): print the script again'; END IF; END $journal$;",
        ]
        lines += statements(from: current, migrations: migrations).map { $0 + ";" }
        lines.append("UPDATE journal_hub.schema_version SET version = \(latest);")
        lines.append("GRANT USAGE ON SCHEMA journal_hub TO \(quoted(user));")
        lines += neededRights.map { "GRANT \($0.right) ON journal_hub.\($0.table) TO \(quoted(user));" }
        lines.append("COMMIT;")
        return lines.joined(separator: "\n") + "\n"
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
            let now = try await presence(connection).exists ? try await version(connection, location: location, latest: latest) : 0
            guard now == current else {
                if current == 0 { throw PostgresHubError.madeMeanwhile(database: location.database, server: location.server) }
                return
            }
            for statement in statements(from: current, migrations: migrations) {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: PostgresConnector.quiet)
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

    /// The rights on the schema's tables a role needs to sync through the hub, and no more.
    static let neededRights: [(table: String, right: String)] = [
        ("schema_version", "SELECT"), ("hub", "SELECT"), ("segments", "SELECT"), ("segments", "INSERT"),
        ("cards", "SELECT"), ("cards", "INSERT"), ("cards", "UPDATE"), ("epochs", "SELECT"), ("epochs", "INSERT"),
    ]

    /// The rights the role lacks to sync through the hub, as a refusal naming the first one.
    static func checkRights(_ connection: PostgresConnection, location: PostgresLocation) async throws {
        let needed = neededRights
        // A table a later migration makes is not asked about before it exists: the migration that
        // makes it runs after this check, and grants to its maker.
        let columns = needed.map {
            "to_regclass('journal_hub.\($0.table)') IS NULL OR has_table_privilege('journal_hub.\($0.table)', '\($0.right)')"
        }.joined(separator: ", ")
        for granted in try await connection.rows(PostgresQuery(unsafeSQL: "SELECT ARRAY[\(columns)]"), { try $0.decode([Bool].self) }) {
            for (index, need) in needed.enumerated() where index < granted.count && !granted[index] {
                throw PostgresHubError.missingRight(
                    user: location.user, right: "\(need.right) on journal_hub.\(need.table)",
                    grant: "GRANT \(need.right) ON journal_hub.\(need.table) TO \(quoted(location.user));")
            }
        }
    }

    /// The role may make the schema: CREATE on the database.
    static func checkCanCreate(_ connection: PostgresConnection, location: PostgresLocation) async throws {
        for granted in try await connection.rows("SELECT has_database_privilege(current_database(), 'CREATE')", { try $0.decode(Bool.self) })
            where !granted
        {
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

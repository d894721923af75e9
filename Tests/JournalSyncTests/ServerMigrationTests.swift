import Foundation
import JournalKit
import JournalSync
import PostgresNIO
import Testing
import TestSupport

@testable import PostgresHub

/// A hub's migrations on its server run file by file, as psql -f would run them: a function body in
/// a dollar quote of any tag, or a comment, may hold semicolons and quotes.
@Suite(.onTestThreads) struct ServerMigrationTests {
    @Test func statementsEndAtSemicolonsOutsideQuotesBodiesAndComments() {
        let sql = """
            -- a comment; with a ' quote
            CREATE TABLE "a;b" (x text DEFAULT 'it''s; fine');
            /* a block; /* nested; */ still a comment; */ CREATE FUNCTION f() RETURNS text AS $body$ SELECT ';$$' $body$ LANGUAGE sql;
            CREATE FUNCTION g() RETURNS text AS $$ SELECT 'x;y' $$ LANGUAGE sql;
            SELECT $1;
            -- the end;
            """
        let statements = SQLStatements.split(sql)
        #expect(statements.count == 4, "\(statements)")
        #expect(statements[0].hasSuffix("DEFAULT 'it''s; fine')"))
        #expect(statements[1].hasSuffix("$body$ SELECT ';$$' $body$ LANGUAGE sql"))
        #expect(statements[2] == "CREATE FUNCTION g() RETURNS text AS $$ SELECT 'x;y' $$ LANGUAGE sql")
        #expect(statements[3] == "SELECT $1")
    }

    @Test func aMigrationWithTaggedDollarQuotesAndCommentsRunsWhole() async throws {
        try await withTemporaryDirectory { folder in
            let server = PostgresServer.shared
            let (database, _, uri) = try server.makeDatabase(passwordFileIn: folder)
            let place = try PostgresPlace(connectionString: uri)
            let hub = try await place.make(key: SyncKey(), shared: false)
            await hub.close()
            let next = Migration(version: ServerSchema.latestVersion + 1, name: "v9999_test.sql", sql: """
                -- A comment; with a semicolon and a quote ' in it.
                CREATE FUNCTION journal_hub.test_body() RETURNS text LANGUAGE plpgsql AS $body$
                BEGIN
                    RETURN 'a;b $$ c'; -- a comment; inside the body
                END;
                $body$;
                COMMENT ON FUNCTION journal_hub.test_body() IS 'semi;colon';
                """)
            let location = try PostgresLocation.parse(uri)
            let link = try await PostgresConnector(location: location).connect()
            defer { Task { await link.close() } }
            try await link.run { connection in
                try await ServerSchema.migrate(
                    connection, from: ServerSchema.latestVersion, location: location, migrations: embeddedMigrations + [next])
            }
            #expect(try server.psql("SELECT journal_hub.test_body()", database: database) == "a;b $$ c")
            #expect(try server.psql("SELECT version FROM journal_hub.schema_version", database: database) == "\(next.version)")
        }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    /// The README's hand-over, as a DBA would run it: its SQL block, with this test's names.
    static func handOverSQL(role: String, database: String, owner: String) throws -> String {
        let readme = try String(contentsOfFile: repository + "/README.md", encoding: .utf8)
        let blocks = readme.components(separatedBy: "```sql\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        guard let block = blocks.first(where: { $0.contains("REASSIGN OWNED") }) else { throw FixtureError("README.md has no hand-over SQL") }
        // Each name once, through placeholders: the test's names contain the README's.
        return block.replacingOccurrences(of: "journal_alice", with: "\u{1}").replacingOccurrences(of: "journal_owner", with: "\u{2}")
            .replacingOccurrences(of: "alice", with: role)
            .replacingOccurrences(of: "\u{1}", with: database).replacingOccurrences(of: "\u{2}", with: owner)
    }

    /// Once the README's hand-over has given the schema to another role, the journal's role cannot run
    /// a migration: a journal that needs one says so and changes nothing; the SQL `journal sync
    /// migrate-sql` prints, run by the administrator, migrates the schema (from the first version, as
    /// the journal of `e40f17e` made it, to this journal's: the device cards), gives the role the rights
    /// it needs, and then the journal opens the hub and writes its card.
    @Test func aHandedOverSchemaIsMigratedByTheSQLItsOwnerRuns() async throws {
        try await withTemporaryDirectory { folder in
            let server = PostgresServer.shared
            let (database, role, uri) = try server.makeDatabase(passwordFileIn: folder)
            let key = SyncKey()
            let first = Array(embeddedMigrations.prefix(1))
            try await PostgresPlace(connectionString: uri, migrations: first).make(key: key, shared: false).close()
            let owner = "owner_" + role
            // A hub from before cards has no table to grant on: the migration's script grants it.
            let handOver = try Self.handOverSQL(role: role, database: database, owner: owner).split(separator: "\n")
                .filter { !$0.contains("journal_hub.cards") && !$0.contains("journal_hub.epochs") }.joined(separator: "\n")
            try server.psql(handOver, database: database)

            let newer = try PostgresPlace(connectionString: uri)
            let refusal = await #expect(throws: PostgresHubError.self) { try await newer.open(key: key, expecting: nil).close() }
            guard case .migrationNeedsOwner(_, _, let version, let latest, let named)? = refusal else {
                Issue.record("not the refusal of a schema only its owner may migrate: \(String(describing: refusal))")
                return
            }
            #expect(version == 1 && latest == embeddedMigrations.last?.version && named == owner)
            #expect(refusal?.kind == .setup)
            #expect(try server.psql("SELECT version FROM journal_hub.schema_version", database: database) == "1")

            let script = try #require(try await newer.migrationScript())
            let scriptFile = folder + "/migrate.sql"
            let latestVersion = String(embeddedMigrations.last?.version ?? 0)
            try script.write(toFile: scriptFile, atomically: true, encoding: .utf8)
            try server.psql(file: scriptFile, database: database)
            #expect(try server.psql("SELECT version FROM journal_hub.schema_version", database: database) == latestVersion)
            #expect(try server.psql("SELECT tableowner FROM pg_tables WHERE tablename = 'cards'", database: database) == owner)
            // Printed before, run again after: refused by the version it checks, and nothing changes.
            #expect(throws: FixtureError.self) { try server.psql(file: scriptFile, database: database) }
            #expect(try server.psql("SELECT version FROM journal_hub.schema_version", database: database) == latestVersion)

            let hub = try await newer.open(key: key, expecting: nil)
            try await hub.writeCard([1, 2, 3], of: DeviceID(rawValue: UUIDText.random()))
            await hub.close()
            #expect(try await newer.migrationScript() == nil)
            // The role still owns nothing: the guard of append-only holds after the migration too.
            #expect(throws: FixtureError.self) {
                try server.psql("ALTER TABLE journal_hub.segments DISABLE TRIGGER ALL", database: database, role: role)
            }
        }
    }

    /// The script is SQL a person runs as the schema's owner: an owner's name (the server's word) with
    /// a line break in it would end the script's comment and start a statement of its own, so no script
    /// is printed for it.
    @Test func anOwnerNameThatWouldBreakOutOfItsCommentGetsNoScript() async throws {
        try await withTemporaryDirectory { folder in
            let server = PostgresServer.shared
            let (database, role, uri) = try server.makeDatabase(passwordFileIn: folder)
            try await PostgresPlace(connectionString: uri).make(key: SyncKey(), shared: false).close()
            let owner = "owner_\(role)\nDROP TABLE journal_hub.segments; --"
            try server.psql("CREATE ROLE \"\(owner)\"")
            try server.psql("ALTER SCHEMA journal_hub OWNER TO \"\(owner)\"; GRANT USAGE ON SCHEMA journal_hub TO \(role)", database: database)
            let next = Migration(version: ServerSchema.latestVersion + 1, name: "v9999_test.sql", sql: "CREATE TABLE journal_hub.nothing (x int)")
            let newer = try PostgresPlace(connectionString: uri, migrations: embeddedMigrations + [next])
            await #expect(throws: SyncError.self) { _ = try await newer.migrationScript() }
        }
    }
}

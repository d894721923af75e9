import Foundation
import JournalKit
import JournalSync
import PostgresNIO
import Testing
import TestSupport

@testable import PostgresHub

/// A hub's migrations on its server run file by file, as psql -f would run them: a function body in
/// a dollar quote of any tag, or a comment, may hold semicolons and quotes.
@Suite struct ServerMigrationTests {
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
            let (database, role) = try server.makeDatabase()
            let passwords = folder + "/pgpass"
            FileManager.default.createFile(
                atPath: passwords, contents: Data(server.passwordLine(role: role).utf8), attributes: [.posixPermissions: 0o600])
            let uri = server.uri(database: database, role: role) + "&passfile=" + passwords
            let place = try PostgresPlace(connectionString: uri)
            let hub = try await place.make(key: SyncKey(), shared: false)
            await hub.close()
            let next = Migration(version: 2, name: "v0002_test.sql", sql: """
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
                try await ServerSchema.migrate(connection, from: 1, location: location, migrations: embeddedMigrations + [next])
            }
            #expect(try server.psql("SELECT journal_hub.test_body()", database: database) == "a;b $$ c")
            #expect(try server.psql("SELECT version FROM journal_hub.schema_version", database: database) == "2")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// `journal sync` through a real PostgreSQL server: joining, status, and every refusal leaving both the
/// server and the journal as they were.
@Suite(.onTestThreads) struct PostgresSyncTests {
    let server = PostgresServer.shared

    /// True when the database holds the hub's schema.
    func hasSchema(_ database: String) throws -> Bool {
        try server.psql("SELECT to_regnamespace('journal_hub') IS NOT NULL", database: database) == "t"
    }

    /// True when the journal is joined to a hub.
    func isJoined(_ machine: JournalCLI) throws -> Bool {
        !(try machine.run("sync", "status").stdout.contains("is not joined to a hub"))
    }

    @Test func machinesSyncThroughTheServerAndStatusShowsItWithoutThePassword() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, on: .postgres)
            let (a, b) = (joined.machines[0], joined.machines[1])
            try a.run("add", "espresso", "--note", "through the server")
            #expect(try a.run("sync").status == 0)
            #expect(try b.run("sync").status == 0)
            #expect(try b.run("list").stdout.contains("through the server"))
            let status = try b.run("sync", "status")
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.stdout.contains("Server       localhost:\(server.port), PostgreSQL "), "\(status.stdout)")
            #expect(status.stdout.contains("TLS          TLSv1."), "\(status.stdout)")
            #expect(status.stdout.contains("(certificate and host name verified)"), "\(status.stdout)")
            #expect(status.stdout.contains("Notified     never yet"), "\(status.stdout)")
            let json = try b.json("sync", "status", "--json") as? [String: Any]
            let facts = json?["hub_facts"] as? [String: Any]
            #expect((facts?["tls"] as? String)?.hasPrefix("TLSv1.") == true)
            #expect(json?["hub_kind"] as? String == "postgres")
            for output in [status.stdout, status.stderr, try a.run("sync").stdout] {
                #expect(!output.contains("secret-"), "the password was shown: \(output)")
            }
        }
    }

    @Test func aPasswordInTheConnectionStringIsRefusedAndNotRepeated() async throws {
        try await withTemporaryDirectory { folder in
            let machine = JournalCLI(home: folder + "/a")
            let result = try machine.run("sync", "init", "--postgres", "postgresql://alice:hunter2-in-url@localhost:\(server.port)/journal")
            #expect(result.status == 64)
            #expect(result.stderr.contains("holds a password"), "\(result.stderr)")
            #expect(!result.stderr.contains("hunter2-in-url"))
            let keyword = try machine.run("sync", "init", "--postgres", "host=localhost password=hunter2-in-url dbname=journal")
            #expect(keyword.status == 64 && !keyword.stderr.contains("hunter2-in-url"), "\(keyword.stderr)")
            #expect(!(try isJoined(machine)))
        }
    }

    /// Each refusal: its exit status, a message naming the cause, and nothing made on the server or
    /// joined in the journal.
    @Test func refusalsLeaveTheServerAndTheJournalAsTheyWere() async throws {
        try await withTemporaryDirectory { folder in
            let (database, role) = try server.makeDatabase()
            let machine = JournalCLI(home: folder + "/a")
            func refused(_ uri: String, _ status: Int32, _ words: String, passwords: String? = nil) throws {
                let file = folder + "/pgpass-\(UUID().uuidString.prefix(6))"
                FileManager.default.createFile(
                    atPath: file, contents: Data((passwords ?? server.passwordLine(role: role)).utf8), attributes: [.posixPermissions: 0o600])
                let result = try machine.run("sync", "init", "--postgres", uri + "&passfile=" + file)
                #expect(result.status == status, "\(uri): \(result.stderr)")
                #expect(result.stderr.contains(words), "\(uri): \(result.stderr)")
                #expect(!result.stderr.contains("secret-"), "\(result.stderr)")
                #expect(try !hasSchema(database))
                #expect(try !isJoined(machine))
            }
            let good = server.uri(database: database, role: role)
            try refused(good, 78, "refused the password", passwords: "*:*:*:\(role):wrong-password\n")
            try refused(good, 78, "asks a password", passwords: "")
            try refused("postgresql://\(role)@no-such-host.invalid:\(server.port)/\(database)?sslmode=disable", 1, "cannot reach the hub")
            try refused("postgresql://\(role)@localhost:\(PostgresServer.freePort())/\(database)?sslmode=disable", 1, "connection refused")
            try refused(server.uri(database: database, role: role, host: "127.0.0.1"), 78, "is not for 127.0.0.1")
            try refused(server.uri(database: "no_such_db", role: role), 78, "has no database \"no_such_db\"")
            let plain = try PostgresServer(tls: false)
            defer { try? plain.stop() }
            try refused("postgresql://postgres@localhost:\(plain.port)/postgres?sslmode=require", 78, "does not offer TLS",
                        passwords: "*:*:*:postgres:fixture-superuser\n")
            // A role that may connect but not create the hub's schema.
            try server.psql("REVOKE CREATE ON DATABASE \(database) FROM \(role)")
            try refused(good, 78, "lacks CREATE on the database \(database)")
            try server.psql("GRANT CREATE ON DATABASE \(database) TO \(role)")
        }
    }

    @Test func aKeyIsCheckedBeforeAnythingIsWritten() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a"], on: .postgres)
            let other = JournalCLI(home: folder + "/b")
            let withoutKey = try other.run("sync", "init", "--postgres", joined.hub)
            #expect(withoutKey.status == 64, "\(withoutKey.stderr)")
            #expect(withoutKey.stderr.contains("needs its key"))
            let stranger = try JoinedMachines.makeKey(in: folder + "/elsewhere")
            let wrongKey = try other.run(["sync", "init", "--postgres", joined.hub, "--key-file", "-"], stdin: try stranger.run("sync", "key").stdout)
            #expect(wrongKey.status == 65, "\(wrongKey.stderr)")
            #expect(wrongKey.stderr.contains("does not open"))
            #expect(try !isJoined(other))
            let database = HubFlavor.databaseAndRole(joined.hub).database
            #expect(try server.psql("SELECT count(*) FROM journal_hub.segments", database: database) == "0")
        }
    }

    @Test func aServerSchemaNewerThanTheJournalIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a"], on: .postgres)
            let database = HubFlavor.databaseAndRole(joined.hub).database
            try server.psql("UPDATE journal_hub.schema_version SET version = 99", database: database)
            try joined.machines[0].run("add", "espresso")
            let result = try joined.machines[0].run("sync")
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("written by a newer journal"), "\(result.stderr)")
            // Said as what it is: the schema's version, not the hub's format.
            #expect(result.stderr.contains("schema version 99") && !result.stderr.contains("hub format"), "\(result.stderr)")
            #expect(try server.psql("SELECT count(*) FROM journal_hub.segments", database: database) == "0")
        }
    }

    /// 1,000,000 rows under a device id no member has (anyone with INSERT on the table can write them)
    /// made every sync read them all, take 25 s and exit 65. They are read once, said once, and every
    /// later sync is a no-op that lists nothing of them.
    @Test func rowsOfADeviceNoMemberHasCostOneSyncNotEvery() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a"], on: .postgres)
            let machine = joined.machines[0]
            let database = HubFlavor.databaseAndRole(joined.hub).database
            let stranger = UUID().uuidString.lowercased()
            try server.psql(
                "INSERT INTO journal_hub.segments (device, first_position, last_position, bytes) "
                    + "SELECT '\(stranger)', n, n, 'junk' FROM generate_series(1, 100000) AS n", database: database)
            try machine.run("add", "espresso")
            let first = try machine.run("sync")
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("Passed over a file") && first.stdout.contains("through position 100000"), "\(first.stdout)")
            let again = try machine.run("sync")
            #expect(again.status == 0 && again.stdout == "Nothing to sync: this journal and the hub agree.\n", "\(again.stdout)\(again.stderr)")
            // More rows under that id later: those are read, once.
            try server.psql(
                "INSERT INTO journal_hub.segments (device, first_position, last_position, bytes) VALUES ('\(stranger)', 100001, 100001, 'junk')",
                database: database)
            #expect(try machine.run("sync").stdout.contains("through position 100001"))
            #expect(try machine.run("sync").stdout.hasPrefix("Nothing to sync"))
        }
    }

    /// Anyone with INSERT on the table can put a row under a device's id at the name that device's next
    /// changes were to go under: it is not a copied database, and the device is not told to take a new
    /// id; its changes go up with its next change.
    @Test func aBogusRowAtADevicesNextNameIsNoCopiedDatabase() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, on: .postgres)
            let (a, b) = (joined.machines[0], joined.machines[1])
            let database = HubFlavor.databaseAndRole(joined.hub).database
            try a.run("add", "espresso")
            #expect(try a.run("sync").status == 0)
            let device = try #require((try a.json("sync", "status", "--json") as? [String: Any])?["device"] as? String)
            let next = try server.psql(
                "SELECT max(last_position) + 1 FROM journal_hub.segments WHERE device = '\(device)'", database: database)
            try server.psql(
                "INSERT INTO journal_hub.segments (device, first_position, last_position, bytes) VALUES ('\(device)', \(next), \(next), 'junk')",
                database: database)
            try a.run("add", "black-tea", "--note", "blocked once")
            let blocked = try a.run("sync")
            #expect(blocked.status == 0, "\(blocked.stderr)")
            #expect(!blocked.stderr.contains("new-device") && !blocked.stdout.contains("new-device"), "\(blocked.stderr)")
            #expect(blocked.stdout.contains("Left a file in this device's log") && blocked.stdout.contains("next change"), "\(blocked.stdout)")
            try a.run("add", "green-tea", "--note", "and then")
            #expect(try a.run("sync").status == 0)
            #expect(try b.run("sync").status == 0)
            let notes = try b.run("sql", "select note from history where note is not null order by note", "--format", "csv").stdout
            #expect(notes == "note\r\nand then\r\nblocked once\r\n", "\(notes)")
        }
    }

    @Test func theServerItselfKeepsSegmentsAppendOnly() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a"], on: .postgres)
            try joined.machines[0].run("add", "espresso")
            #expect(try joined.machines[0].run("sync").status == 0)
            let (database, role) = HubFlavor.databaseAndRole(joined.hub)
            for statement in ["UPDATE journal_hub.segments SET bytes = '\\x00'", "DELETE FROM journal_hub.segments",
                              "TRUNCATE journal_hub.segments", "UPDATE journal_hub.hub SET key_check = 'x'", "DELETE FROM journal_hub.hub"] {
                #expect(throws: FixtureError.self, "\(statement) as the hub's own role") {
                    try server.psql(statement, database: database, role: role)
                }
            }
            // Even the owner giving itself the rights back meets the server's triggers.
            try server.psql("GRANT UPDATE, DELETE, TRUNCATE ON journal_hub.segments TO \(role)", database: database, role: role)
            for statement in ["UPDATE journal_hub.segments SET bytes = '\\x00'", "DELETE FROM journal_hub.segments", "TRUNCATE journal_hub.segments"] {
                let refusal = #expect(throws: FixtureError.self) { try server.psql(statement, database: database, role: role) }
                #expect(refusal?.description.contains("append-only") == true, "\(refusal?.description ?? "")")
            }
            #expect(try server.psql("SELECT count(*) FROM journal_hub.segments", database: database) == "1")
        }
    }

    /// A DBA who hands the schema to another role leaves the journal's role only what syncing needs;
    /// a right taken too many is named.
    @Test func aRoleWithOnlyTheRightsItNeedsSyncsAndAMissingOneIsNamed() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a", "b"], on: .postgres)
            let (database, role) = HubFlavor.databaseAndRole(joined.hub)
            try server.psql("CREATE ROLE admin_\(role)")
            try server.psql("""
                REASSIGN OWNED BY \(role) TO admin_\(role); REVOKE CREATE ON DATABASE \(database) FROM \(role);
                GRANT USAGE ON SCHEMA journal_hub TO \(role);
                GRANT SELECT ON journal_hub.schema_version, journal_hub.hub TO \(role);
                GRANT SELECT, INSERT ON journal_hub.segments TO \(role);
                GRANT SELECT, INSERT, UPDATE ON journal_hub.cards TO \(role);
                GRANT SELECT, INSERT ON journal_hub.epochs TO \(role);
                """, database: database)
            try joined.machines[0].run("add", "espresso")
            #expect(try joined.machines[0].run("sync").status == 0)
            #expect(try joined.machines[1].run("sync").status == 0)
            #expect(try joined.machines[1].run("list").stdout.contains("espresso"))
            // Owning nothing, the role cannot take the server's guard away, nor go around it.
            for statement in ["ALTER TABLE journal_hub.segments DISABLE TRIGGER ALL",
                              "DROP TRIGGER segments_are_append_only ON journal_hub.segments", "DROP TABLE journal_hub.segments",
                              "UPDATE journal_hub.segments SET bytes = '\\x00'", "DELETE FROM journal_hub.segments"] {
                #expect(throws: FixtureError.self, "\(statement) as the hub's role, after the hand-over") {
                    try server.psql(statement, database: database, role: role)
                }
            }
            #expect(try server.psql("SELECT count(*) FROM journal_hub.segments", database: database) == "1")
            try server.psql("REVOKE INSERT ON journal_hub.segments FROM \(role)", database: database)
            try joined.machines[1].run("add", "cola")
            let refused = try joined.machines[1].run("sync")
            #expect(refused.status == 78, "\(refused.stderr)")
            #expect(refused.stderr.contains("lacks INSERT on journal_hub.segments"), "\(refused.stderr)")
            #expect(refused.stderr.contains("GRANT INSERT ON journal_hub.segments TO \"\(role)\""), "\(refused.stderr)")
        }
    }

    /// `journal sync migrate-sql` on a hub at this journal's version prints SQL that runs nothing, for
    /// either kind of hub; a journal that joined none is told so.
    @Test func migrateSQLOnAnUpToDateHubRunsNothing() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder + "/server", names: ["a"], on: .postgres)
            let printed = try joined.machines[0].run("sync", "migrate-sql")
            #expect(printed.status == 0, "\(printed.stderr)")
            #expect(printed.stdout.hasPrefix("-- The hub postgresql://") && printed.stdout.hasSuffix("is up to date: there is nothing to run.\n"))
            let (database, _) = HubFlavor.databaseAndRole(joined.hub)
            #expect(try server.psql(printed.stdout, database: database) == "")
            let onFolder = try JoinedMachines(in: folder + "/folder", names: ["a"], on: .folder)
            #expect(try onFolder.machines[0].run("sync", "migrate-sql").stdout.contains("is up to date"))
            let alone = try JournalCLI(home: folder + "/alone").run("sync", "migrate-sql")
            #expect(alone.status != 0 && alone.stdout.isEmpty && alone.stderr.contains("sync init"), "\(alone.stderr)")
        }
    }

    /// Two people on one server, each with a database and role of their own: neither reaches the other's rows.
    @Test func anotherHubsRoleCannotReachThisHubsRows() async throws {
        try await withTemporaryDirectory { folder in
            let alice = try JoinedMachines(in: folder + "/alice", names: ["a"], on: .postgres)
            let bob = try JoinedMachines(in: folder + "/bob", names: ["b"], on: .postgres)
            try alice.machines[0].run("add", "espresso")
            #expect(try alice.machines[0].run("sync").status == 0)
            let database = HubFlavor.databaseAndRole(alice.hub).database
            let bobRole = HubFlavor.databaseAndRole(bob.hub).role
            let refusal = #expect(throws: FixtureError.self) {
                try server.psql("SELECT count(*) FROM journal_hub.segments", database: database, role: bobRole)
            }
            #expect(refusal?.description.contains("permission denied") == true, "\(refusal?.description ?? "")")
        }
    }
}

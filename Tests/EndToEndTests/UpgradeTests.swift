import Foundation
import Testing
import TestSupport

/// Journals and a folder hub written by an earlier release, opened by this one: their files upgrade
/// in place, and the machines sync on without losing or doubling a drink. Each fixture was made once
/// by `Tests/Fixtures/make-upgrade-fixture.sh` with the journal built from the commit it is named after.
@Suite(.onTestThreads) struct UpgradeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    static func history(_ machine: JournalCLI) throws -> String {
        try machine.run("sql", "select id, drink, caffeine_mg, note from history order by id", "--format", "csv").stdout
    }

    /// The fixture's machines a and b, their journals pointed at `hub`. What a checkout cannot carry is
    /// put right: git keeps no file modes (a key others may read is refused), and the fixture was made
    /// in another folder, as another file (a journal file that moved is refused as a copy, which this
    /// is not meant to test).
    static func machines(in copy: String, hub: String) throws -> [JournalCLI] {
        let machines = ["a", "b"].map { JournalCLI(home: copy + "/" + $0, now: "2026-11-22T08:00:00Z") }
        for machine in machines {
            #expect(chmod(machine.home + "/.config/journal/sync.key", 0o600) == 0)
            let moved = try ProcessRunner.run("/usr/bin/sqlite3", [
                machine.databasePath, "UPDATE sync_hub SET location = '\(hub)'; DELETE FROM meta WHERE key = 'file_identity';",
            ], environment: [:])
            #expect(moved.status == 0, "\(moved.stderr)")
        }
        return machines
    }

    @Test(arguments: ["upgrade-e40f17e"])
    func journalsAndAFolderHubOfAnEarlierReleaseSyncOn(_ fixture: String) async throws {
        try await withTemporaryDirectory { folder in
            let copy = folder + "/" + fixture
            try FileManager.default.copyItem(atPath: Self.fixtures + "/" + fixture, toPath: copy)
            let expected = try String(contentsOfFile: copy + "/a-history.csv", encoding: .utf8)
            let machines = try Self.machines(in: copy, hub: copy + "/hub")
            let (a, b) = (machines[0], machines[1])
            // Read as the earlier release left them, before any sync.
            #expect(try Self.history(a) == expected)
            #expect(try Self.history(b) == (try String(contentsOfFile: copy + "/b-history.csv", encoding: .utf8)))
            #expect(try a.run("status", "--format", "{sync_state}").stdout == "waiting\n")
            // The key file the earlier release wrote is read, and printed in today's form.
            #expect(try a.run("sync", "key").stdout.hasPrefix("JK2-"))
            for machine in [a, b, a, b] {
                let synced = try machine.run("sync")
                #expect(synced.status == 0, "\(machine.home): \(synced.stderr)")
            }
            // a's drink that was not published reached b; nothing was lost or doubled.
            for machine in machines {
                #expect(try Self.history(machine) == expected, "\(machine.home)")
                #expect(try machine.run("status", "--format", "{sync_state}").stdout == "ok\n")
            }
            #expect(expected.contains("a's, not published") && expected.contains("a's first, edited on b") && expected.contains("b's own drink"))
            #expect(!expected.contains("later deleted"))
            // Each device wrote its card at its first sync after the upgrade, and each knows the other's.
            for machine in machines {
                let devices = try #require(try machine.json("sync", "devices", "--json") as? [String: Any])["devices"] as? [[String: Any]]
                #expect(devices?.count == 2 && devices?.allSatisfy { $0["name"] is String && $0["card_problem"] is NSNull } == true,
                    "\(machine.home): \(String(describing: devices))")
            }
        }
    }

    /// What an earlier release's undo log remembers is undone by this one after the upgrade (migration
    /// 16 makes the log anew), and redone.
    @Test func anEarlierReleasesChangesAreUndoneAndRedone() async throws {
        try await withTemporaryDirectory { folder in
            let copy = folder + "/upgrade-e40f17e"
            try FileManager.default.copyItem(atPath: Self.fixtures + "/upgrade-e40f17e", toPath: copy)
            let a = try Self.machines(in: copy, hub: copy + "/hub")[0]
            let expected = try Self.history(a)
            let added = try a.run("undo")
            #expect(added.status == 0 && added.stdout.hasPrefix("Undid add: removed ") && added.stdout.contains("200e63f9"), "\(added.stdout)\(added.stderr)")
            let removed = try a.run("undo")
            #expect(removed.stdout.hasPrefix("Undid rm: restored black-tea 47 mg"), "\(removed.stdout)\(removed.stderr)")
            #expect(try Self.history(a).contains("a's tea, later deleted"))
            for _ in 0..<2 { #expect(try a.run("redo").status == 0) }
            #expect(try Self.history(a) == expected)
        }
    }

    /// The same history on a PostgreSQL hub: its dump restored on the tests' server as the hub's role
    /// (which, owning the schema, migrates it to this journal's version at the first sync), and the
    /// journals pointed at it.
    @Test(arguments: ["upgrade-e40f17e-postgres"])
    func journalsAndAServerHubOfAnEarlierReleaseSyncOn(_ fixture: String) async throws {
        try await withTemporaryDirectory { folder in
            let copy = folder + "/" + fixture
            try FileManager.default.copyItem(atPath: Self.fixtures + "/" + fixture, toPath: copy)
            let server = PostgresServer.shared
            let (database, role) = try server.makeDatabase()
            let restore = folder + "/restore.sql"
            // Made by the role, as its first `sync init` made it: the objects are the role's.
            try ("SET ROLE \(role);\n" + String(contentsOfFile: copy + "/hub.sql", encoding: .utf8)).write(toFile: restore, atomically: true, encoding: .utf8)
            _ = try server.psql(file: restore, database: database)
            #expect(try server.psql("SELECT version FROM journal_hub.schema_version", database: database) == "1")
            let uri = server.uri(database: database, role: role) + "&passfile=" + (try server.writePasswordFile(role: role, in: folder))
            let expected = try String(contentsOfFile: copy + "/a-history.csv", encoding: .utf8)
            let machines = try Self.machines(in: copy, hub: uri)
            let (a, b) = (machines[0], machines[1])
            #expect(try Self.history(a) == expected)
            for machine in [a, b, a, b] {
                let synced = try machine.run("sync")
                #expect(synced.status == 0, "\(machine.home): \(synced.stderr)")
            }
            #expect(try server.psql("SELECT version FROM journal_hub.schema_version", database: database) == "3")
            for machine in machines {
                #expect(try Self.history(machine) == expected, "\(machine.home)")
                let devices = try #require(try machine.json("sync", "devices", "--json") as? [String: Any])["devices"] as? [[String: Any]]
                #expect(devices?.count == 2 && devices?.allSatisfy { $0["name"] is String } == true, "\(String(describing: devices))")
            }
            // Every segment the earlier release wrote is still there, and none was written twice.
            #expect(try server.psql("SELECT count(*) = count(DISTINCT (device, first_position)) FROM journal_hub.segments", database: database) == "t")
        }
    }
}

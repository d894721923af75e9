import Foundation
import Testing
import TestSupport

/// What the last sync came to is a value a script reads (`ok` or `failed`, the failure's kind and exit
/// status, the message apart), recorded by every attempt, failed ones included.
@Suite(.onTestThreads) struct SyncOutcomeTests {
    func lastSync(_ machine: JournalCLI) throws -> [String: Any] {
        try #require((try machine.json("sync", "status", "--json") as? [String: Any])?["last_sync"] as? [String: Any])
    }

    /// A `journal sync` that could not reach the hub left the previous success's message in place.
    @Test func aSyncThatCannotReachTheHubRecordsItsFailure() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a"])
            let machine = joined.machines[0]
            try machine.run("add", "espresso")
            #expect(try machine.run("sync").status == 0)
            #expect(try lastSync(machine)["result"] as? String == "ok")
            try FileManager.default.moveItem(atPath: joined.hub, toPath: folder + "/unmounted")
            let failed = try machine.run("sync")
            #expect(failed.status == 1, "\(failed.stderr)")
            let last = try lastSync(machine)
            #expect(last["result"] as? String == "failed", "\(last)")
            #expect(last["failure"] as? String == "failure" && last["exit_status"] as? Double == 1, "\(last)")
            #expect((last["message"] as? String)?.hasPrefix("cannot reach the hub") == true, "\(last)")
            #expect(try machine.run("sync", "status").stdout.contains(": failed: cannot reach the hub"))
            // Another hub's key is refused as bad data, recorded as such.
            try FileManager.default.moveItem(atPath: folder + "/unmounted", toPath: joined.hub)
            let keyPath = folder + "/a/.config/journal/sync.key"
            try (String(repeating: "ab", count: 32) + "\n").write(toFile: keyPath, atomically: true, encoding: .utf8)
            #expect(chmod(keyPath, 0o600) == 0)
            #expect(try machine.run("sync").status == 65)
            let wrongKey = try lastSync(machine)
            #expect(wrongKey["failure"] as? String == "bad-data" && wrongKey["exit_status"] as? Double == 65, "\(wrongKey)")
        }
    }

    /// `status --format` tells a prompt how sync stands, in a word, and how old the last success is:
    /// a failure since keeps the success's age.
    @Test func statusSaysHowSyncStandsForAPrompt() async throws {
        try await withTemporaryDirectory { folder in
            let lone = JournalCLI(home: folder + "/lone")
            let template = "{sync_state} {last_sync_age_s}"
            #expect(try lone.run("status", "--format", template).stdout == "not-joined \n")
            let joined = try JoinedMachines(in: folder, names: ["a"])
            let machine = joined.machines[0]
            // Ten minutes after the machine's clock (15:30), when it synced.
            var later = machine.environment
            later["JOURNAL_NOW"] = "2026-11-21T15:40:00Z"
            func shown() throws -> String {
                try ProcessRunner.run(JournalCLI.binary, ["status", "--format", template], environment: later).stdout
            }
            // A field with no value is left empty, as for sleep_ready_at.
            #expect(try shown() == "waiting \n")
            try machine.run("add", "espresso")
            #expect(try machine.run("sync").status == 0)
            #expect(try shown() == "ok 600\n")
            try machine.run("add", "tea")
            #expect(try shown() == "waiting 600\n")
            try FileManager.default.moveItem(atPath: joined.hub, toPath: folder + "/unmounted")
            #expect(try machine.run("sync").status == 1)
            #expect(try shown() == "failing 600\n")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(try machine.run("status", "--json").stdout.utf8)) as? [String: Any])
            #expect(json["sync_state"] as? String == "failing" && json["last_sync_age_s"] as? Double == 0, "\(json)")
        }
    }

    /// Every sync records its outcome, a daemon's at every ring of the doorbell: that record does not
    /// wait for the disk (it waited twice, the WAL and its folder, for a sync that did nothing else).
    @Test func aSyncWithNothingToDoWaitsForTheDiskNotOnce() async throws {
        try await withTemporaryDirectory { folder in
            let machine = try JoinedMachines(in: folder, names: ["a"]).machines[0]
            try machine.run("add", "espresso")
            #expect(try machine.run("sync").status == 0)
            let trace = folder + "/trace"
            let traced = try ProcessRunner.run(
                "/usr/bin/strace", ["-f", "-qq", "-e", "trace=fsync,fdatasync,sync_file_range", "-y", "-o", trace, JournalCLI.binary, "sync"],
                environment: machine.environment)
            #expect(traced.status == 0 && traced.stdout.hasPrefix("Nothing to sync"), "\(traced.stdout)\(traced.stderr)")
            let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("sync") }
            #expect(calls.isEmpty, "\(calls)")
            #expect(try lastSync(machine)["result"] as? String == "ok")
        }
    }

    /// A journal whose last sync was recorded as prose ("failed: ...") reads as a typed failure.
    @Test func anOlderJournalsProseIsReadAsAnOutcome() async throws {
        try await withTemporaryDirectory { folder in
            let machine = try JoinedMachines(in: folder, names: ["a"]).machines[0]
            #expect(try machine.run("sync").status == 0)
            // The journal as schema 8 left it: the outcome in words only.
            let downgrade = """
                ALTER TABLE sync_anchors DROP COLUMN clock_ahead_ms; ALTER TABLE sync_anchors DROP COLUMN clock_ahead_at; DROP TABLE settings;
                ALTER TABLE sync_hub DROP COLUMN relay_through; ALTER TABLE sync_hub DROP COLUMN moved_changes;
                ALTER TABLE sync_hub DROP COLUMN moved_devices; ALTER TABLE sync_hub DROP COLUMN moved_at;
                ALTER TABLE sync_hub DROP COLUMN stopped_because; ALTER TABLE sync_hub DROP COLUMN stopped_said;
                DROP TABLE sync_received_own; ALTER TABLE sync_devices DROP COLUMN succeeds;
                DROP VIEW sleep; DROP TABLE nights; ALTER TABLE custom_drinks DROP COLUMN form;
                ALTER TABLE sync_hub DROP COLUMN last_sync_outcome; ALTER TABLE sync_hub DROP COLUMN last_sync_failure;
                ALTER TABLE sync_hub DROP COLUMN last_sync_exit_status; DROP TABLE sync_refused_logs;
                ALTER TABLE sync_hub DROP COLUMN last_ok_sync_at; DROP TABLE sync_devices; ALTER TABLE sync_hub DROP COLUMN admission;
                ALTER TABLE sync_hub DROP COLUMN invitation_tag;
                DROP TABLE sync_invitations; DROP TABLE sync_hub_items; DROP TABLE sync_epoch_records; DROP TABLE local_settings;
                DROP TABLE undo_log;
                CREATE TABLE undo_log (change_id INTEGER NOT NULL, action TEXT NOT NULL, drink_id TEXT NOT NULL, before_kind TEXT,
                    before_caffeine_mg REAL, before_consumed_at INTEGER, before_note TEXT, before_deleted INTEGER,
                    after_hlc INTEGER NOT NULL, PRIMARY KEY (change_id, drink_id)) STRICT;
                CREATE INDEX undo_log_by_drink ON undo_log (drink_id, change_id);
                UPDATE sync_hub SET last_sync_result = 'failed: cannot reach the hub /x: gone. Nothing was lost.';
                PRAGMA user_version = 8;
                """
            let result = try ProcessRunner.run("/usr/bin/sqlite3", [machine.databasePath, downgrade], environment: [:])
            #expect(result.status == 0, "\(result.stderr)")
            let last = try lastSync(machine)
            #expect(last["result"] as? String == "failed" && last["exit_status"] as? Double == 1, "\(last)")
            #expect(last["message"] as? String == "cannot reach the hub /x: gone. Nothing was lost.")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// Issue 31's findings as an attacker runs them with the programs a person has and the files a machine
/// keeps: a revoked laptop joining a copy of the hub, junk files and rows, a name chosen to be taken
/// for another machine's id, a revocation crossing a sync. `JOURNAL_TEST_PRODUCTS` runs them against an
/// earlier build, where each fails.
@Suite(.onTestThreads) struct RevocationAttackTests {
    /// The revoked machine copies the hub without its key records, joins the copy as a brand-new journal
    /// with the key file it kept, adds a 999 mg drink and copies its new log and card back into the real
    /// hub. No member takes the drink; `sync devices` says the newcomer is no member.
    @Test func aRevokedLaptopJoiningACopyOfTheHubChangesNothing() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a", "b", "laptop"])
            let (a, b, laptop) = (joined.machines[0], joined.machines[1], joined.machines[2])
            for machine in [a, b, laptop, a, b, laptop, a] { #expect(try machine.run("sync").status == 0) }
            let revoked = try a.run("sync", "revoke", String(try laptop.deviceID().prefix(8)))
            #expect(revoked.status == 0, "\(revoked.stderr)")
            #expect(try laptop.run("sync").status == 78)

            let copy = folder + "/copy"
            try FileManager.default.copyItem(atPath: joined.hub, toPath: copy)
            // Without the record that shut the laptop out.
            try FileManager.default.removeItem(atPath: copy + "/journal-hub-v1/epochs")
            let thief = JournalCLI(home: folder + "/thief")
            let join = try thief.run("sync", "init", "--folder", copy, "--key-file", folder + "/laptop/.config/journal/sync.key")
            #expect(join.status == 0, "\(join.stderr)")
            #expect(try thief.run("add", "espresso", "--mg", "999", "--note", "forged").status == 0)
            #expect(try thief.run("sync").status == 0)
            let forged = try thief.deviceID()
            try FileManager.default.copyItem(
                atPath: copy + "/journal-hub-v1/devices/" + forged, toPath: joined.hub + "/journal-hub-v1/devices/" + forged)
            try FileManager.default.copyItem(
                atPath: copy + "/journal-hub-v1/cards/" + forged + ".card", toPath: joined.hub + "/journal-hub-v1/cards/" + forged + ".card")

            for machine in [a, b] {
                let synced = try machine.run("sync")
                #expect(synced.status == 0, "\(synced.stderr)")
                #expect(!synced.stdout.contains("Received"), "\(synced.stdout)")
                #expect(!(try machine.run("list").stdout.contains("forged")))
                let devices = try machine.run("sync", "devices").stdout
                #expect(devices.contains(String(forged.prefix(8))) && devices.contains("is not a member"), "\(devices)")
            }
        }
    }

    /// 257 four-byte files named like key epoch records, written by anyone who can write the folder:
    /// every sync on every machine failed for good. Now each machine syncs, says them once, and counts them.
    @Test func junkEpochFilesStopNoSync() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a", "b"])
            let (a, b) = (joined.machines[0], joined.machines[1])
            for machine in [a, b, a] { #expect(try machine.run("sync").status == 0) }
            let epochs = joined.hub + "/journal-hub-v1/epochs"
            try FileManager.default.createDirectory(atPath: epochs, withIntermediateDirectories: true)
            for index in 1...257 {
                try Data([1, 2, 3, 4]).write(to: URL(fileURLWithPath: epochs + "/2-" + String(format: "%032x", index) + ".epoch"))
            }
            try a.run("add", "espresso", "--note", "after the junk")
            for machine in [a, b] {
                let synced = try machine.run("sync")
                #expect(synced.status == 0, "\(synced.stdout)\(synced.stderr)")
            }
            #expect(try b.run("list").stdout.contains("after the junk"))
            let again = try b.run("sync")
            #expect(again.status == 0 && again.stdout.hasPrefix("Nothing to sync"), "\(again.stdout)")
            let status = try b.run("sync", "status").stdout
            #expect(status.contains("257 key epoch records"), "\(status)")
        }
    }

    /// 1,000 junk card files named to come first: the machine that joined after was never heard from,
    /// said to be "not on the hub yet". Now its drinks arrive.
    @Test func junkCardFilesHideNoMachine() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a"])
            let a = joined.machines[0]
            #expect(try a.run("sync").status == 0)
            let cards = joined.hub + "/journal-hub-v1/cards"
            for index in 0..<1000 {
                try Data(repeating: 7, count: 8).write(to: URL(fileURLWithPath: cards + "/" + String(format: "00000000-0000-4000-8000-%012x", index) + ".card"))
            }
            let late = JournalCLI(home: folder + "/late")
            #expect(try late.run(["sync", "init", "--folder", joined.hub, "--key-file", "-"], stdin: try a.run("sync", "key").stdout).status == 0)
            try late.run("add", "tea", "--note", "from the late machine")
            #expect(try late.run("sync").status == 0)
            let synced = try a.run("sync")
            #expect(synced.status == 0 && !synced.stdout.contains("not on the hub yet"), "\(synced.stdout)")
            #expect(try a.run("list").stdout.contains("from the late machine"))
        }
    }

    /// A member renames itself to another machine's id as `sync devices` shows it: `revoke` with that id
    /// revoked the renamed member, not the machine meant. The name is refused.
    @Test func aNameThatReadsAsAnotherMachinesIdIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a", "b", "m"])
            let (a, b, m) = (joined.machines[0], joined.machines[1], joined.machines[2])
            for machine in [a, b, m, a] { #expect(try machine.run("sync").status == 0) }
            let shown = String(try b.deviceID().prefix(8))
            let renamed = try m.run("sync", "rename", shown)
            #expect(renamed.status == 64, "\(renamed.stdout)\(renamed.stderr)")
            for machine in [m, a] { #expect(try machine.run("sync").status == 0) }
            let revoked = try a.run("sync", "revoke", shown)
            #expect(revoked.status == 0, "\(revoked.stderr)")
            let devices = try a.run("sync", "devices", "--json").stdout
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(devices.utf8)) as? [String: Any])["devices"] as? [[String: Any]]
            let revokedIDs = (listed ?? []).filter { !($0["revoked_at"] is NSNull) }.compactMap { $0["device"] as? String }
            #expect(revokedIDs == [try b.deviceID()], "\(devices)")
        }
    }

    /// B applies what the laptop published a moment before A, which had not applied it, revoked the
    /// laptop: B keeps it, and its `sync status` says so rather than nothing.
    @Test func aMachineThatKeptARevokedLaptopsDrinkSaysSo() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a", "b", "laptop"])
            let (a, b, laptop) = (joined.machines[0], joined.machines[1], joined.machines[2])
            for machine in [a, b, laptop, a, b, laptop] { #expect(try machine.run("sync").status == 0) }
            try laptop.run("add", "espresso", "--note", "as it was revoked")
            #expect(try laptop.run("sync").status == 0)
            #expect(try b.run("sync").status == 0)
            #expect(try a.run("sync", "revoke", String(try laptop.deviceID().prefix(8))).status == 0)
            let synced = try b.run("sync")
            #expect(synced.status == 0 && !synced.stdout.contains("agree"), "\(synced.stdout)")
            let status = try b.run("sync", "status").stdout
            #expect(status.contains("Kept") && status.contains("after"), "\(status)")
        }
    }

    /// 10,000 junk card rows of 16 KB (anyone with INSERT on the table): a sync held them all at once
    /// (715 MB for 20,000). Now it pages through their keys and reads each once: its peak memory
    /// stays far below what the rows weigh, and the next sync reads none of them.
    @Test func junkCardRowsDoNotGrowASyncsMemory() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a"], on: .postgres)
            let a = joined.machines[0]
            #expect(try a.run("sync").status == 0)
            let (database, _) = HubFlavor.databaseAndRole(joined.hub)
            _ = try PostgresServer.shared.psql(
                """
                INSERT INTO journal_hub.cards (device, bytes)
                SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, decode(repeat('07', 16000), 'hex')
                FROM generate_series(0, 9999) AS i
                """, database: database)
            for _ in 0..<2 {
                let report = folder + "/time"
                let timed = try ProcessRunner.run(
                    "/usr/bin/time", ["-f", "%M", "-o", report, JournalCLI.binary, "sync"], environment: a.environment)
                #expect(timed.status == 0, "\(timed.stderr)")
                let kilobytes = Int(try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
                // The rows weigh 160 MB; the sync program alone takes about 40.
                #expect(kilobytes < 120_000, "peak \(kilobytes) KB")
            }
        }
    }
}

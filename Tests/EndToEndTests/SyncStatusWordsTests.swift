import Foundation
import Testing
import TestSupport

/// What `journal sync` says it received, and what `journal sync status` says of each device, agree
/// with each other and with `sync devices`: counts are counts, ids are as `sync devices` shows them, a
/// revoked device is marked, and a journal that joined no hub still gets JSON.
@Suite(.onTestThreads) struct SyncStatusWordsTests {
    @Test func aSyncCountsWhatItReceivedAsItCame() async throws {
        try await withTemporaryDirectory { folder in
            let hub = folder + "/hub"
            try FileManager.default.createDirectory(atPath: hub, withIntermediateDirectories: true)
            // A's clock runs half an hour ahead of B's: A's edit is the later write.
            let a = JournalCLI(home: folder + "/a", now: "2026-11-21T16:00:00Z")
            let b = JournalCLI(home: folder + "/b", now: "2026-11-21T15:30:00Z")
            #expect(try a.run("sync", "init", "--folder", hub).status == 0)
            #expect(try b.run(["sync", "init", "--folder", hub, "--key-file", "-"], stdin: try a.run("sync", "key").stdout).status == 0)
            let added = try #require(try b.json("add", "espresso", "--json") as? [String: Any])
            let id = String(try #require(added["id"] as? String).prefix(8))
            try b.run("sync")
            #expect(try a.run("sync").stdout == "Received 1 change from 1 device.\n")
            // B changes the drink and adds one; A changes the same drink later, before it hears of B's change.
            try b.run("edit", id, "--mg", "70")
            try b.run("add", "tea")
            try b.run("sync")
            try a.run("edit", id, "--mg", "90")
            let both = try a.run("sync")
            #expect(both.stdout.hasPrefix("Received 2 changes from 1 device: 1 new, 1 already here;")
                || both.stdout.hasPrefix("Published 1 change in 1 segment; received 2 changes from 1 device: 1 new, 1 already here."),
                "\(both.stdout)")
            let drinks = try #require(try a.json("list", "--json") as? [[String: Any]])
            #expect(drinks.first { ($0["id"] as? String)?.hasPrefix(id) == true }?["caffeine_mg"] as? Double == 90)
        }
    }

    @Test func statusShowsIdsAsDevicesDoesAndMarksARevokedDevice() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            try b.run("add", "espresso")
            for machine in [b, a, b, a] { #expect(try machine.run("sync").status == 0) }
            let bID = try #require((try b.json("sync", "status", "--json") as? [String: Any])?["device"] as? String)
            let status = try a.run("sync", "status")
            let row = try #require(status.stdout.split(separator: "\n").first { $0.contains(bID.prefix(8)) }, "\(status.stdout)")
            #expect(!status.stdout.contains(bID), "the whole id, where sync devices shows 8 characters: \(status.stdout)")
            #expect(row.contains("all applied"), "\(row)")
            let json = try #require(try a.json("sync", "status", "--json") as? [String: Any])
            let device = try #require((json["devices"] as? [[String: Any]])?.first)
            #expect(device["caught_up"] as? Bool == true && device["revoked_at"] is NSNull, "\(device)")

            #expect(try a.run("sync", "revoke", String(bID.prefix(8))).status == 0)
            let after = try a.run("sync", "status")
            let revokedRow = try #require(after.stdout.split(separator: "\n").first { $0.hasPrefix(String(bID.prefix(8))) || $0.contains(" \(bID.prefix(8)) ") })
            #expect(revokedRow.contains("revoked"), "\(after.stdout)")
            #expect(after.stdout.contains("(\(bID.prefix(8))) was revoked by this device on "), "\(after.stdout)")
            let revokedJSON = try #require((try a.json("sync", "status", "--json") as? [String: Any])?["devices"] as? [[String: Any]])
            #expect(revokedJSON.first?["revoked_at"] is String && revokedJSON.first?["revoked_by"] as? String == "this device", "\(revokedJSON)")
        }
    }

    @Test func statusAsJSONBeforeJoiningSaysSo() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso")
            let result = try journal.run("sync", "status", "--json")
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(json["joined"] as? Bool == false && json["device"] is String, "\(json)")
            // In words too, an answer with the fix, as git status's: exit 0.
            let words = try journal.run("sync", "status")
            #expect(words.status == 0 && words.stdout.contains("not joined"), "\(words.stderr)")
        }
    }
}

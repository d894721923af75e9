import Foundation
import Testing
import TestSupport

/// A hub in a folder a sync tool copies (Syncthing, Dropbox), or that several users share: what a
/// person meets there, and the way out of each.
@Suite(.onTestThreads, .serialized) struct SharedFolderTests {
    @Test func joiningBeforeTheSyncToolBroughtTheHubMakesNothing() async throws {
        try await withTemporaryDirectory { folder in
            let first = JournalCLI(home: folder + "/a")
            try FileManager.default.createDirectory(atPath: folder + "/a-share", withIntermediateDirectories: true)
            try first.run("sync", "init", "--folder", folder + "/a-share")
            let key = try first.run("sync", "key").stdout
            // On the second machine the shared folder is still empty: the tool has not copied hub.json.
            let second = JournalCLI(home: folder + "/b")
            try FileManager.default.createDirectory(atPath: folder + "/b-share", withIntermediateDirectories: true)
            let early = try second.run(["sync", "init", "--folder", folder + "/b-share", "--key-file", "-"], stdin: key)
            #expect(early.status == 64 && early.stderr.contains("wait until"), "\(early.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/b-share").isEmpty)
            #expect(!FileManager.default.fileExists(atPath: folder + "/b/.config/journal/sync.key"))
        }
    }

    @Test func aHubSplitByTheSyncToolIsMendedByJoiningTheOneThatStayed() async throws {
        try await withTemporaryDirectory { folder in
            // Each machine made a hub in its copy of the shared folder before the tool met them.
            let a = JournalCLI(home: folder + "/a")
            let b = JournalCLI(home: folder + "/b")
            for (machine, share) in [(a, "a-share"), (b, "b-share")] {
                try FileManager.default.createDirectory(atPath: folder + "/" + share, withIntermediateDirectories: true)
                try machine.run("sync", "init", "--folder", folder + "/" + share)
                try machine.run("add", "espresso", "--note", "from \(share)")
                #expect(try machine.run("sync").status == 0)
            }
            // The tool merges the folders: a's hub.json wins, b's becomes a conflict copy.
            let aHub = folder + "/a-share/journal-hub-v1", bHub = folder + "/b-share/journal-hub-v1"
            try FileManager.default.moveItem(atPath: bHub + "/hub.json", toPath: bHub + "/hub.sync-conflict-20261121-101010-B.json")
            try FileManager.default.copyItem(atPath: aHub + "/hub.json", toPath: bHub + "/hub.json")
            // The logs and the cards, each side's reaching the other.
            func copy(_ kind: String, from source: String, to target: String, replacing: Bool = false) throws {
                for name in try FileManager.default.contentsOfDirectory(atPath: source + "/" + kind) {
                    if replacing { try? FileManager.default.removeItem(atPath: target + "/" + kind + "/" + name) }
                    if FileManager.default.fileExists(atPath: target + "/" + kind + "/" + name) { continue }
                    try FileManager.default.copyItem(atPath: source + "/" + kind + "/" + name, toPath: target + "/" + kind + "/" + name)
                }
            }
            for kind in ["devices", "cards"] {
                try copy(kind, from: bHub, to: aHub)
                try copy(kind, from: aHub, to: bHub)
            }
            let split = try b.run("sync")
            #expect(split.status == 1 && split.stderr.contains("another hub than the one this journal joined"), "\(split.stderr)")
            #expect(split.stderr.contains("journal sync init --hub HUB --key-file -"))
            // The one documented command: join the hub that stayed, with its key.
            let rejoin = try b.run(["sync", "init", "--hub", folder + "/b-share", "--key-file", "-"], stdin: try a.run("sync", "key").stdout)
            #expect(rejoin.status == 0, "\(rejoin.stderr)")
            let mended = try b.run("sync")
            #expect(mended.status == 0, "\(mended.stderr)")
            // b's segments, sealed with its old key, were set aside and written again with the hub's.
            for kind in ["devices", "cards"] { try copy(kind, from: bHub, to: aHub, replacing: true) }
            #expect(try a.run("sync").status == 0)
            for machine in [a, b] {
                let notes = try machine.run("sql", "select note from history order by note", "--format", "csv").stdout
                #expect(notes == "note\r\nfrom a-share\r\nfrom b-share\r\n", "\(notes)")
            }
        }
    }

    @Test func aDevicesOwnStaleTemporariesAreRemovedAndOthersLeftAlone() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let a = joined.machines[0]
            try a.run("add", "espresso")
            try a.run("sync")
            let device = try #require(try FileManager.default.contentsOfDirectory(atPath: joined.hub + "/journal-hub-v1/devices").first {
                FileManager.default.fileExists(atPath: joined.hub + "/journal-hub-v1/devices/\($0)/000000000001-000000000001.seg")
            })
            let own = joined.hub + "/journal-hub-v1/devices/" + device
            // A sync killed while writing leaves its temporary; Syncthing's own are dot-names too.
            try Data(count: 272_000).write(to: URL(fileURLWithPath: own + "/.000000000002-000000000002.seg.tmp-1a2b3c"))
            try Data(count: 10).write(to: URL(fileURLWithPath: own + "/.syncthing.000000000003-000000000003.seg.tmp"))
            #expect(try a.run("sync").status == 0)
            #expect(!FileManager.default.fileExists(atPath: own + "/.000000000002-000000000002.seg.tmp-1a2b3c"))
            #expect(FileManager.default.fileExists(atPath: own + "/.syncthing.000000000003-000000000003.seg.tmp"))
        }
    }

    @Test func statusWarnsWhenASyncToolMadeHubFilesReadableByOthers() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let a = joined.machines[0]
            try a.run("add", "espresso")
            try a.run("sync")
            #expect(try a.run("sync", "status").stdout.contains("Warning") == false)
            let devices = joined.hub + "/journal-hub-v1/devices"
            for device in try FileManager.default.contentsOfDirectory(atPath: devices) {
                chmod(devices + "/" + device, 0o755)
                for file in try FileManager.default.contentsOfDirectory(atPath: devices + "/" + device) { chmod(devices + "/" + device + "/" + file, 0o644) }
            }
            let status = try a.run("sync", "status").stdout
            #expect(status.contains("can be read by other users") && status.contains("chmod -R go-rwx"), "\(status)")
            let json = try #require(try a.json("sync", "status", "--json") as? [String: Any])
            #expect((json["hub_warnings"] as? [String])?.contains { $0.contains("can be read by other users") } == true)
        }
    }

    /// Two accounts of one machine sharing a hub, as two machines whose NFS user ids differ would.
    @Test func twoUsersShareAHubMadeSharedAndAreToldWhyOtherwise() async throws {
        try await withTemporaryDirectory { folder in
            let shared = try SharedHubUsers(in: folder)
            let users = SharedHubUsers.names
            let share = shared.share
            // Made private (the default), the second user is told it is a permission matter.
            #expect(try shared.journal(users[0], ["sync", "init", "--folder", share]).status == 0)
            let key = try shared.journal(users[0], ["sync", "key"]).stdout
            let refused = try shared.journal(users[1], ["sync", "init", "--folder", share, "--key-file", "-"], stdin: key)
            #expect(refused.status == 78 && refused.stderr.contains("permission denied") && refused.stderr.contains("--shared"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("still be copying"))
            // Made shared, both sync through it.
            try FileManager.default.removeItem(atPath: share + "/journal-hub-v1")
            try shared.joined()
            #expect(try shared.journal(users[0], ["sync"]).status == 0)
            for user in users {
                let notes = try shared.journal(user, ["sql", "select note from history order by note", "--format", "csv"]).stdout
                #expect(notes == "note\r\nby journaltest-a\r\nby journaltest-b\r\n", "\(user): \(notes)")
            }
            #expect(try permissions(share + "/journal-hub-v1/devices") & 0o070 == 0o070)
        }
    }
}

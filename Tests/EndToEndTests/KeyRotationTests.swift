import Foundation
import Testing
import TestSupport

/// `journal sync rotate-key` and `journal sync revoke`, on both kinds of hub, as a person runs them:
/// nobody carries the new key around, the revoked machine is told so, and the old key admits no one.
@Suite(.onTestThreads) struct KeyRotationTests {
    @Test(arguments: HubFlavor.allCases)
    func aRevokedMachineIsToldAndTheOldKeyAdmitsNoOne(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a", "b", "c"], on: flavor)
            let (a, b, c) = (joined.machines[0], joined.machines[1], joined.machines[2])
            #expect(try c.run("sync", "rename", "lost laptop").status == 0)
            for machine in [a, b, c, a] { #expect(try machine.run("sync").status == 0) }

            let revoked = try a.run("sync", "revoke", "LOST LAPTOP")
            #expect(revoked.status == 0, "\(revoked.stderr)")
            #expect(revoked.stdout.hasPrefix("lost laptop was revoked (key epoch 1)"), "\(revoked.stdout)")
            #expect(revoked.stdout.contains("2 devices"), "\(revoked.stdout)")
            #expect(revoked.stdout.contains("REVOKE ALL ON ALL TABLES IN SCHEMA journal_hub") == (flavor == .postgres), "\(revoked.stdout)")
            let newKey = try a.run("sync", "key").stdout
            #expect(keyPart(newKey) != keyPart(joined.key) && newKey.hasPrefix("JK2-"))

            // B takes the new key up by itself, and reads what A publishes under it.
            try a.run("add", "espresso", "--note", "after the revocation")
            #expect(try a.run("sync").status == 0)
            let synced = try b.run("sync")
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(keyPart(try b.run("sync", "key").stdout) == keyPart(newKey))
            #expect(try b.run("list").stdout.contains("after the revocation"))

            // C is told plainly, changes nothing, and exits as for a setup to fix (78).
            try c.run("add", "tea", "--note", "from the lost laptop")
            let told = try c.run("sync")
            #expect(told.status == 78, "\(told.stderr)")
            #expect(told.stderr.contains("this device was removed from the hub by"), "\(told.stderr)")
            #expect(!(try c.run("list").stdout.contains("after the revocation")))

            let devices = try b.run("sync", "devices")
            #expect(devices.stdout.contains("lost laptop (") && devices.stdout.contains("was revoked by"), "\(devices.stdout)")
            let json = try #require(try b.json("sync", "devices", "--json") as? [String: Any])
            let listed = try #require(json["devices"] as? [[String: Any]])
            #expect(listed.filter { !($0["revoked_at"] is NSNull) }.map { $0["name"] as? String } == ["lost laptop"])

            // A new machine given the key from before the rotation is refused, saying when it was replaced.
            let d = JournalCLI(home: folder + "/d", now: "2026-11-21T15:30:00Z")
            let refused = try d.run(["sync", "init"] + flavor.arguments(joined.hub) + ["--key-file", "-"], stdin: joined.key)
            #expect(refused.status == 65, "\(refused.stderr)")
            #expect(refused.stderr.contains("it was replaced on"), "\(refused.stderr)")
            let admitted = try d.run(["sync", "init"] + flavor.arguments(joined.hub) + ["--key-file", "-"], stdin: newKey)
            #expect(admitted.status == 0, "\(admitted.stderr)")
            #expect(try d.run("sync").status == 0)
            #expect(try d.run("list").stdout.contains("after the revocation"))
        }
    }

    @Test func aRotationNeedsNoKeyCarriedAndARevocationOfNoDeviceIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            for machine in [a, b, a] { #expect(try machine.run("sync").status == 0) }
            let before = try snapshotFiles(joined.hub)
            for (name, status) in [("nobody", 65), ("", 65)] {
                let refused = try a.run("sync", "revoke", name)
                #expect(refused.status == Int32(status), "\(name): \(refused.stderr)")
            }
            #expect(try snapshotFiles(joined.hub) == before)

            let rotated = try a.run("sync", "rotate-key")
            #expect(rotated.status == 0, "\(rotated.stderr)")
            #expect(rotated.stdout.hasPrefix("The hub's key was replaced (key epoch 1)"), "\(rotated.stdout)")
            try b.run("add", "espresso", "--note", "from b, after")
            #expect(try b.run("sync").status == 0)
            #expect(try a.run("sync").status == 0)
            #expect(try a.run("list").stdout.contains("from b, after"))
            #expect(keyPart(try a.run("sync", "key").stdout) == keyPart(try b.run("sync", "key").stdout))
        }
    }
}

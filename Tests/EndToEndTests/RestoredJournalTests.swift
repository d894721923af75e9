import Foundation
import Testing
import TestSupport

/// A journal put back from an old backup in its own place is a device that was offline: it takes back
/// what it had published since the backup, brings back nothing deleted since, and keeps its name and
/// its place among the members; nothing calls it a copy.
@Suite(.onTestThreads) struct RestoredJournalTests {
    @Test(arguments: [HubFlavor.folder, .postgres])
    func aJournalRestoredFromAnOldBackupSyncsAsADeviceThatWasOffline(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, on: flavor)
            let (a, b) = (joined.machines[0], joined.machines[1])
            try a.run("add", "coffee", "--at", "8:00")
            try a.run("add", "tea", "--at", "8:30")
            for machine in [a, b] { #expect(try machine.run("sync").status == 0) }
            let backup = folder + "/backup.db"
            #expect(try a.run("backup", backup).status == 0)
            let device = try a.deviceID()
            // Since the backup: a added and deleted, b deleted.
            try a.run("add", "espresso", "--at", "9:00", "--note", "after the backup")
            let tea = try #require(try drinks(a).first { $0.kind == "black-tea" }?.id)
            try a.run("rm", String(tea.prefix(8)))
            #expect(try a.run("sync").status == 0)
            #expect(try b.run("sync").status == 0)
            let coffee = try #require(try drinks(b).first { $0.kind == "medium-coffee" }?.id)
            try b.run("rm", String(coffee.prefix(8)))
            #expect(try b.run("sync").status == 0)

            // Put back as README says, then a drink added before the first sync.
            for file in [a.databasePath, a.databasePath + "-wal", a.databasePath + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
            try FileManager.default.copyItem(atPath: backup, toPath: a.databasePath)
            try a.run("add", "chocolate", "--at", "10:00")
            let synced = try a.run("sync")
            #expect(synced.status == 0, "\(synced.stdout)\(synced.stderr)")
            #expect(synced.stdout.contains("put back from a backup"), "\(synced.stdout)")
            #expect(try a.deviceID() == device)
            #expect(try b.run("sync").status == 0)
            for machine in [a, b] {
                let kinds = try drinks(machine).map(\.kind).sorted()
                #expect(kinds == ["chocolate", "espresso"], "\(machine.home): deleted stays deleted, nothing is lost: \(kinds)")
            }
            let again = try a.run("sync")
            #expect(again.stdout == "Nothing to sync: this journal and the hub agree.\n", "\(again.stdout)\(again.stderr)")
            let names = try #require((try b.json("sync", "devices", "--json") as? [String: Any])?["devices"] as? [[String: Any]])
            #expect(names.count == 2, "no new device: \(names)")
        }
    }

    /// A machine back after weeks offline: a drink deleted elsewhere meanwhile stays deleted; one it
    /// changed after the deletion, not knowing of it, comes back, and the machine that deleted it says so.
    @Test func aMachineBackFromOfflineBringsNothingDeletedBackUnsaid() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            try a.run("add", "coffee", "--at", "8:00")
            try a.run("add", "tea", "--at", "8:30")
            for machine in [a, b] { #expect(try machine.run("sync").status == 0) }
            var later = b
            later.environment["JOURNAL_NOW"] = "2026-12-21T15:30:00Z"
            let listed = try drinks(a)
            let coffee = try #require(listed.first { $0.kind == "medium-coffee" }?.id)
            let tea = try #require(listed.first { $0.kind == "black-tea" }?.id)
            try a.run("rm", String(coffee.prefix(8)), String(tea.prefix(8)))
            #expect(try a.run("sync").status == 0)
            // b, offline all along, changes the tea after a deleted it.
            #expect(try later.run("edit", String(tea.prefix(8)), "--note", "kept").status == 0)
            #expect(try later.run("sync").status == 0)
            let back = try a.run("sync")
            #expect(back.stdout.contains("1 record deleted here came back: another device changed it after the deletion"), "\(back.stdout)")
            for machine in [a, b] { #expect(try drinks(machine).map(\.kind) == ["black-tea"], "\(machine.home)") }
        }
    }

    struct Listed {
        let id: String
        let kind: String
    }

    private func drinks(_ machine: JournalCLI) throws -> [Listed] {
        let list = try #require(try machine.json("list", "--all", "--json") as? [[String: Any]])
        return list.map { Listed(id: $0["id"] as? String ?? "", kind: $0["drink"] as? String ?? "") }
    }
}

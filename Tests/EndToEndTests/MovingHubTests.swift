import Foundation
import Testing
import TestSupport

/// The person has one journal: a machine that moves to a new hub takes all of it there, other
/// machines' changes included, and machines that move after it double nothing.
@Suite(.onTestThreads) struct MovingHubTests {
    /// m1, m2 and m3 share a hub; m1 has m2's drink, m3 never heard of it. m1 moves to a hub of
    /// another kind, m3 joins it there and finds m2's drink; m2 moves too and doubles nothing; a
    /// drink deleted on the old hub stays deleted.
    @Test(arguments: [(HubFlavor.folder, HubFlavor.postgres), (.nginx, .folder)])
    func aMachineThatMovesTakesTheWholeJournal(from old: HubFlavor, to new: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder + "/old", names: ["m1", "m2", "m3"], on: old)
            let (m1, m2, m3) = (joined.machines[0], joined.machines[1], joined.machines[2])
            try m1.run("add", "coffee", "--at", "8:00")
            try m3.run("add", "tea", "--at", "8:30")
            for machine in [m1, m3, m2] { #expect(try machine.run("sync").status == 0) }
            try m2.run("add", "espresso", "--at", "9:00", "--note", "m2's")
            try m2.run("add", "cola", "--at", "9:10")
            let cola = try #require((try m2.json("list", "--json") as? [[String: Any]])?.first { $0["drink"] as? String == "soft-drink" }?["id"] as? String)
            try m2.run("rm", String(cola.prefix(8)))
            #expect(try m2.run("config", "daily_limit_mg", "300").status == 0)
            #expect(try m2.run("sync").status == 0)
            #expect(try m1.run("sync").status == 0)

            // m1 moves; m3, which never heard of m2's espresso, joins it there.
            let hub = try new.newHub(in: folder + "/new")
            let moved = try m1.run(["sync", "init"] + new.arguments(hub))
            #expect(moved.status == 0, "\(moved.stderr)")
            let published = try #require(try m1.json("sync", "--json") as? [String: Any])
            #expect((published["moved"] as? Double ?? 0) >= 4, "m2's espresso, cola and its deletion, the limit, m3's tea: \(published)")
            let key = try m1.run("sync", "key").stdout
            #expect(try m3.run(["sync", "init"] + new.arguments(hub) + ["--key-file", "-"], stdin: key).status == 0)
            #expect(try m3.run("sync").status == 0)
            let expected = try drinks(m1)
            #expect(expected.count == 3 && expected.contains { $0.note == "m2's" }, "\(expected)")
            #expect(try drinks(m3) == expected)
            #expect((try m3.json("status", "--json") as? [String: Any])?["daily_limit_mg"] as? Double == 300)
            let status = try m1.run("sync", "status").stdout
            #expect(status.contains("Moved        "), "\(status)")
            #expect(status.contains("other devices, which this journal brought from its previous hub"), "\(status)")

            // m2 moves after them: it publishes nothing the hub has, and the three agree.
            let keyForM2 = try m1.run("sync", "key").stdout
            #expect(try m2.run(["sync", "init"] + new.arguments(hub) + ["--key-file", "-"], stdin: keyForM2).status == 0)
            let second = try #require(try m2.json("sync", "--json") as? [String: Any])
            #expect(second["published"] as? Double == 0, "everything m2 holds is on the new hub already: \(second)")
            #expect(try m2.run("add", "espresso", "--at", "10:00").status == 0)
            for machine in [m2, m1, m3] { #expect(try machine.run("sync").status == 0) }
            let all = try drinks(m1)
            #expect(all.count == 4)
            for machine in [m2, m3] { #expect(try drinks(machine) == all) }
            let deleted = try m3.run("sql", "select deleted from drinks where id = '\(cola)'", "--format", "csv").stdout
            #expect(deleted.split(whereSeparator: \.isNewline) == ["deleted", "1"], "the deletion moved with the journal: \(deleted)")
        }
    }

    /// A drink as `list --json` shows it, for comparing journals.
    struct Listed: Equatable {
        let id: String
        let mg: Double
        let note: String?
    }

    private func drinks(_ machine: JournalCLI) throws -> [Listed] {
        let list = try #require(try machine.json("list", "--all", "--json") as? [[String: Any]])
        return list.map { Listed(id: $0["id"] as? String ?? "", mg: $0["caffeine_mg"] as? Double ?? -1, note: $0["note"] as? String) }
            .sorted { $0.id < $1.id }
    }
}

import Foundation
import Testing
import TestSupport

/// A clock is trusted only so far: a machine whose clock read three years ahead once does not win
/// every edit made elsewhere afterwards, and the machines say whose clock ran ahead.
@Suite(.onTestThreads) struct WrongClockTests {
    static let threeYears: Int64 = (3 * 365 + 1) * 86_400

    @Test func aClockWrongOnceDoesNotWinTheEditsMadeElsewhereLater() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a", "b", "c"])
            let (a, b, c) = (joined.machines[0], joined.machines[1], joined.machines[2])
            try a.run("add", "coffee", "--at", "8:00")
            for machine in [a, b, c] { #expect(try machine.run("sync").status == 0) }
            let coffee = try #require((try a.json("list", "--json") as? [[String: Any]])?.first?["id"] as? String)

            // For one command, a's clock reads three years ahead; then it is right again.
            var wrong = a
            wrong.environment.merge(try WrongClock.environment(offBy: Self.threeYears, in: folder)) { $1 }
            #expect(try wrong.run("add", "tea", "--at", "8:30").status == 0)
            let tea = try #require((try a.json("list", "--json") as? [[String: Any]])?.first { $0["drink"] as? String == "black-tea" }?["id"] as? String)
            #expect(try a.run("edit", String(coffee.prefix(8)), "--mg", "70").status == 0)
            #expect(try a.run("sync").status == 0)
            // b changes the coffee after a did, before it hears of a's change.
            #expect(try b.run("edit", String(coffee.prefix(8)), "--mg", "90").status == 0)
            for machine in [b, a, c, b] { #expect(try machine.run("sync").status == 0) }
            for machine in [a, b, c] {
                let drinks = try #require(try machine.json("list", "--json") as? [[String: Any]])
                #expect(drinks.first { $0["id"] as? String == coffee }?["caffeine_mg"] as? Double == 90, "\(machine.home): \(drinks)")
            }

            // a's own edits keep the order it made them in: its change of the tea it stamped ahead wins.
            #expect(try a.run("edit", String(tea.prefix(8)), "--mg", "30").status == 0)
            for machine in [a, b, c] { #expect(try machine.run("sync").status == 0) }
            for machine in [a, b, c] {
                let drinks = try #require(try machine.json("list", "--json") as? [[String: Any]])
                #expect(drinks.first { $0["id"] as? String == tea }?["caffeine_mg"] as? Double == 30, "\(machine.home): \(drinks)")
            }

            // Each says it: a of its own clock, the others of a's.
            let own = try a.run("sync", "status").stdout
            #expect(own.contains("Clock        This machine's clock had run ahead to "), "\(own)")
            #expect(own.contains("(3 years ahead of real time)"), "\(own)")
            let name = try #require(((try b.json("sync", "devices", "--json") as? [String: Any])?["devices"] as? [[String: Any]])?
                .first { ($0["device"] as? String) == (try? a.deviceID()) }?["name"] as? String)
            for machine in [b, c] {
                let status = try machine.run("sync", "status").stdout
                #expect(status.contains("Clock        \(name)'s clock ran 3 years ahead of this machine's"), "\(status)")
                let json = try #require(try machine.json("sync", "status", "--json") as? [String: Any])
                let ahead = (json["devices"] as? [[String: Any]])?.first { ($0["name"] as? String) == name }?["clock_ahead_s"] as? Double
                #expect((ahead ?? 0) > Double(Self.threeYears - 3_600), "\(json)")
            }
        }
    }
}

import Foundation
import Testing
import TestSupport

/// Syncs and key rotations killed with SIGKILL at random moments, many times, then finished: nothing
/// lost, nothing duplicated, both databases intact, both machines on one key, and the hub readable by a
/// device that was never killed, joining with that key.
@Suite(.onTestThreads) struct SyncCrashTests {
    static let initialDrinks = 6_000
    static let rounds = 20
    static let drinksPerRound = 600

    /// An export of `count` drinks with ids numbered from `start`, all distinct.
    static func export(from start: Int, count: Int) -> String {
        let drinks = (start..<start + count).map { index in
            let id = String(format: "%08x-0000-4000-8000-%012x", index, index)
            let minute = String(format: "%02d", index % 60)
            let hour = String(format: "%02d", (index / 60) % 24)
            return #"{"id": "\#(id)", "drink": "espresso", "caffeine_mg": 64, "consumed_at": "2026-10-01T\#(hour):\#(minute):00Z"}"#
        }
        return "[" + drinks.joined(separator: ",\n") + "]"
    }

    @Test(arguments: HubFlavor.allCases)
    func killedSyncsLoseAndDuplicateNothing(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, on: flavor)
            let (a, b, hub, key) = (joined.machines[0], joined.machines[1], joined.hub, joined.key)
            #expect(try a.run(["import", "-"], stdin: Self.export(from: 0, count: Self.initialDrinks)).status == 0)

            // Each machine's card known to the other first: a key goes to the machines its maker knows (one
            // that joined and never synced before a rotation joins again with the new key).
            for machine in [a, b, a] { #expect(try machine.run("sync").status == 0) }
            var generator = SeededGenerator.fromEnvironment()
            var interrupted = 0
            var next = Self.initialDrinks
            for round in 0..<Self.rounds {
                // New drinks on a each round, so both the publisher and the reader always have work to be
                // killed in the middle of.
                #expect(try a.run(["import", "-"], stdin: Self.export(from: next, count: Self.drinksPerRound)).status == 0)
                next += Self.drinksPerRound
                // Every other round, b replaces the hub's key meanwhile: a rotation killed half done too.
                let processes = try [(a, ["sync"]), (b, round % 2 == 0 ? ["sync"] : ["sync", "rotate-key"])].map { machine, arguments in
                    try ProcessRunner.start(JournalCLI.binary, arguments, environment: machine.environment)
                }
                // A blocking sleep: under a busy test run, a task's sleep can end long after it should
                // (its thread is lent to other tests), and every kill would find the syncs done.
                usleep(UInt32(Int.random(in: 2_000...50_000, using: &generator)))
                for process in processes {
                    if process.isRunning { interrupted += 1 }
                    ProcessRunner.stop(process)
                }
            }
            // Most kills must land mid-sync, or this test would prove nothing.
            #expect(interrupted >= Self.rounds / 2, "only \(interrupted) kills found a sync running; \(generator.replay)")
            for machine in [a, b, a, b] {
                let finished = try machine.run("sync")
                #expect(finished.status == 0, "\(finished.stderr); \(generator.replay)")
            }

            let total = Self.initialDrinks + Self.rounds * Self.drinksPerRound
            for machine in [a, b] {
                let counts = try machine.run("sql", "select count(*), count(distinct id) from history; pragma integrity_check", "--format", "csv").stdout
                #expect(counts.contains("\(total),\(total)\r\n"), "\(counts); \(generator.replay)")
                #expect(counts.contains("integrity_check\r\nok\r\n"), "\(counts); \(generator.replay)")
            }
            // Both machines hold the same key, the last rotation's; the first admits no one once replaced.
            let current = try a.run("sync", "key").stdout
            #expect(keyPart(try b.run("sync", "key").stdout) == keyPart(current), "\(generator.replay)")
            let fresh = JournalCLI(home: folder + "/fresh")
            if keyPart(current) != keyPart(key) {
                let refused = try fresh.run(["sync", "init"] + flavor.arguments(hub) + ["--key-file", "-"], stdin: key)
                #expect(refused.status == 65 && refused.stderr.contains("it was replaced on"), "\(refused.stderr)")
            }
            let admitted = try fresh.run(["sync", "init"] + flavor.arguments(hub) + ["--key-file", "-"], stdin: current)
            #expect(admitted.status == 0, "\(admitted.stderr); \(generator.replay)")
            let pulled = try fresh.run("sync")
            #expect(pulled.status == 0, "\(pulled.stderr)")
            let freshCount = try fresh.run("sql", "select count(*), count(distinct id), sum(caffeine_mg) from history", "--format", "csv").stdout
            #expect(freshCount.hasSuffix("\(total),\(total),\(total * 64)\r\n"), "\(freshCount); \(generator.replay)")
        }
    }
}

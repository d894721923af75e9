import Foundation
import Testing
import TestSupport

/// `journal-syncd` as systemd runs it: real processes, real signals, a notification socket of the
/// test's own, and two machines sharing a folder hub.
@Suite(.onTestThreads, .serialized, .timeLimit(.minutes(3))) struct SyncDaemonProcessTests {
    static let daemon = ProcessRunner.executable("journal-syncd")

    /// Two machines joined to one hub in `folder`, on the real clock (the daemons run for real).
    func twoMachines(_ folder: String) throws -> (JournalCLI, JournalCLI, String) {
        let joined = try JoinedMachines(in: folder, now: nil)
        return (joined.machines[0], joined.machines[1], joined.hub)
    }

    @Test func talksToSystemdAndStopsCleanlyOnSIGTERM() async throws {
        try await withTemporaryDirectory { folder in
            let (a, _, _) = try twoMachines(folder)
            let socket = try NotifySocket(path: folder + "/notify.sock")
            var environment = a.environment
            environment["NOTIFY_SOCKET"] = socket.path
            environment["WATCHDOG_USEC"] = "400000"
            let process = try ProcessRunner.start(Self.daemon, [], environment: environment)
            defer { ProcessRunner.stop(process) }

            let startup = try #require(socket.receive(until: { $0 == "READY=1" }, timeout: .seconds(10)))
            #expect(!startup.contains("STOPPING=1"))
            // Half of WATCHDOG_USEC: a ping every 200 ms, sent by the loop itself. However busy the
            // machine, pings keep coming after the first sync's status; how many in a given time is
            // the scheduler's business, not this test's.
            var pings = 0
            var statuses: [String] = []
            let deadline = ContinuousClock.now + .seconds(60)
            while pings < 5 || statuses.isEmpty, ContinuousClock.now < deadline,
                let message = socket.receive(timeout: deadline - ContinuousClock.now)
            {
                if message == "WATCHDOG=1", !statuses.isEmpty { pings += 1 }
                if message.hasPrefix("STATUS=") { statuses.append(message) }
            }
            #expect(pings == 5, "\(pings) watchdog pings after the first status")
            #expect(statuses.first?.hasPrefix("STATUS=Last sync") == true, "\(statuses)")

            kill(process.processIdentifier, SIGTERM)
            #expect(socket.receive(until: { $0 == "STOPPING=1" }, timeout: .seconds(30)) != nil)
            let stopped = try await eventually(.seconds(30)) { !process.isRunning }
            #expect(stopped)
            guard stopped else { return }
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
        }
    }

    @Test func twoDaemonsCarryEveryChangeAndSurviveTheHubGoingAway() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, hub) = try twoMachines(folder)
            let (daemonA, socketA) = try startDaemon(a, ["--log-level", "debug"], socketPath: folder + "/a.sock")
            defer { ProcessRunner.stop(daemonA, signal: SIGTERM) }
            let (daemonB, socketB) = try startDaemon(b, ["--log-level", "debug"], socketPath: folder + "/b.sock")
            defer { ProcessRunner.stop(daemonB, signal: SIGTERM) }
            defer { withExtendedLifetime((socketA, socketB)) {} }

            try a.run("add", "espresso", "--note", "added on a")
            #expect(try await eventually { try notes(b) == ["added on a"] })

            let id = try #require((try JSONSerialization.jsonObject(with: Data(try b.run("list", "--json").stdout.utf8)) as? [[String: Any]])?.first?["id"] as? String)
            try b.run("edit", String(id.prefix(8)), "--note", "edited on b")
            #expect(try await eventually { try notes(a) == ["edited on b"] })

            try a.run("rm", String(id.prefix(8)))
            #expect(try await eventually { try notes(b).isEmpty })

            // The hub goes away (an unmounted share) while a records a drink, then comes back.
            try FileManager.default.moveItem(atPath: hub, toPath: folder + "/hub-away")
            try a.run("add", "tea", "--note", "while the hub was away")
            // A's daemon tries, fails, says so, and keeps running.
            let failed = socketA.receive(until: { $0.hasPrefix("STATUS=Sync failed") }, timeout: .seconds(30))
            #expect(failed?.last?.contains("Retrying in") == true, "\(failed ?? [])")
            #expect(daemonA.isRunning && daemonB.isRunning)
            try FileManager.default.moveItem(atPath: folder + "/hub-away", toPath: hub)
            // A sync request retries at once instead of waiting out the backoff.
            kill(daemonA.processIdentifier, SIGUSR1)
            #expect(try await eventually { try notes(b) == ["while the hub was away"] })
            #expect(daemonA.isRunning && daemonB.isRunning)

            let status = try #require(try JSONSerialization.jsonObject(with: Data(try a.run("sync", "status", "--json").stdout.utf8)) as? [String: Any])
            #expect(status["daemon_pid"] as? Double == Double(daemonA.processIdentifier))

            // `journal sync` while the daemon runs waits its turn and reports; it never races.
            try a.run("add", "cola")
            let manual = try a.run("sync")
            #expect(manual.status == 0, "\(manual.stderr)")
            #expect(try await eventually { try notes(b).contains("soft-drink") })

            for daemon in [daemonA, daemonB] {
                kill(daemon.processIdentifier, SIGTERM)
                daemon.waitUntilExit()
                #expect(daemon.terminationStatus == 0)
            }
        }
    }

    /// SIGHUP, like SIGUSR1 (`systemctl --user reload`), makes the daemon sync now. With an hour between
    /// safety-net syncs and nothing changing, a sync after the startup's is the signal's.
    @Test func sighupMakesItSyncNow() async throws {
        try await withTemporaryDirectory { folder in
            let (a, _, _) = try twoMachines(folder)
            let log = folder + "/a.log"
            let (daemon, socket) = try startDaemon(a, ["--interval", "1h", "--log-level", "debug"], socketPath: folder + "/a.sock", stderrPath: log)
            defer { ProcessRunner.stop(daemon, signal: SIGTERM) }
            defer { withExtendedLifetime(socket) {} }
            #expect(socket.receive(until: { $0.hasPrefix("STATUS=Last sync") }, timeout: .seconds(30)) != nil)
            kill(daemon.processIdentifier, SIGHUP)
            // The request may join other reasons that came meanwhile ("synced (hub+request)").
            var said = ""
            let synced = try await eventually(.seconds(60)) {
                said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                return said.split(separator: "\n").contains { $0.contains("synced (") && $0.contains("request") }
            }
            #expect(synced && said.contains("sync requested (SIGHUP)"), "\(said)")
            #expect(daemon.isRunning)
        }
    }

    /// SIGTERM in the middle of a sync: the daemon finishes the segment in flight and exits 0, and
    /// what it had not published goes at the next sync, nothing lost or doubled. The sync is held in
    /// its middle by the journal's write lock, which the test holds until the signal is sent.
    @Test func stopsCleanlyInTheMiddleOfASync() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, _) = try twoMachines(folder)
            let rounds = 3
            let perRound = 16_000
            for round in 0..<rounds {
                let imported = try a.run(["import", "-"], stdin: SyncCrashTests.export(from: round * perRound, count: perRound))
                #expect(imported.status == 0)
                let lock = try HeldWriteLock(database: a.databasePath)
                let log = folder + "/daemon-\(round).log"
                let (daemon, socket) = try startDaemon(a, socketPath: folder + "/notify-\(round).sock", stderrPath: log)
                defer { ProcessRunner.stop(daemon) }
                // Its startup sync reads the import and waits to write that it publishes it.
                let pid = daemon.processIdentifier
                #expect(await lock.release(onceWaitedBy: pid) { kill(pid, SIGTERM) }, "round \(round)")
                daemon.waitUntilExit()
                withExtendedLifetime(socket) {}
                #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 0, "round \(round)")
                let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                #expect(said.contains("stopped after the segment in flight"), "round \(round): \(said)")
            }
            #expect(try a.run("sync").status == 0)
            let finished = try b.run("sync")
            #expect(finished.status == 0, "\(finished.stderr)")
            let count = try b.run("sql", "select count(*), count(distinct id) from history", "--format", "csv").stdout
            #expect(count.hasSuffix("\(rounds * perRound),\(rounds * perRound)\r\n"), "\(count)")
        }
    }

    @Test func waitsForTheJournalToJoinAHub() async throws {
        try await withTemporaryDirectory { folder in
            let a = JournalCLI(home: folder + "/a", now: nil)
            try a.run("add", "espresso")
            let (daemon, socket) = try startDaemon(a, socketPath: folder + "/notify.sock")
            defer { ProcessRunner.stop(daemon, signal: SIGTERM) }
            defer { withExtendedLifetime(socket) {} }
            #expect(daemon.isRunning)
            let hub = folder + "/hub"
            try FileManager.default.createDirectory(atPath: hub, withIntermediateDirectories: true)
            try a.run("sync", "init", "--folder", hub)
            // Joining writes the journal; the daemon notices and publishes without being asked.
            #expect(try await eventually {
                (try? FileManager.default.contentsOfDirectory(atPath: hub + "/journal-hub-v1/devices"))?.isEmpty == false
            })
        }
    }

    @Test func oneDaemonPerJournal() async throws {
        try await withTemporaryDirectory { folder in
            let (a, _, _) = try twoMachines(folder)
            let (first, socket) = try startDaemon(a, socketPath: folder + "/notify.sock")
            defer { ProcessRunner.stop(first, signal: SIGTERM) }
            defer { withExtendedLifetime(socket) {} }
            let second = try ProcessRunner.run(Self.daemon, [], environment: a.environment)
            #expect(second.status == 78)
            #expect(second.stderr.contains("already syncs"))
            #expect(first.isRunning)
        }
    }

    @Test func onceSyncsAndExits() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, _) = try twoMachines(folder)
            try a.run("add", "espresso")
            let published = try ProcessRunner.run(Self.daemon, ["--once"], environment: a.environment)
            #expect(published.status == 0, "\(published.stderr)")
            #expect(published.stdout == "Published 1 change in 1 segment.\n")
            let received = try ProcessRunner.run(Self.daemon, ["--once"], environment: b.environment)
            #expect(received.stdout == "Received 1 change from 1 device.\n")
            let bad = try ProcessRunner.run(Self.daemon, ["--interval", "soon"], environment: a.environment)
            #expect(bad.status == 64)
        }
    }
}

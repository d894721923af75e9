import Foundation
import Testing
import TestSupport

/// Daemons on a PostgreSQL hub: the server's doorbell, a server restart mid-sync, moving between kinds
/// of hub, and the unit's network following the hub. The limit guards against a hang only: a server
/// restart amid 20,000 drinks takes 7 s alone and took 194 s in a whole run beside every hub's tests.
@Suite(.onTestThreads, .timeLimit(.minutes(10))) struct PostgresDaemonTests {
    /// "drinks,distinct ids" in `machine`'s journal.
    func count(_ machine: JournalCLI) throws -> String {
        let csv = try machine.run("sql", "select count(*), count(distinct id) from history", "--format", "csv").stdout
        return String(csv.split(separator: "\r\n").last ?? "")
    }

    /// How many writes `machine`'s journal has made: each write takes the next change sequence
    /// number, and a received record that changes nothing is not written.
    func writes(_ machine: JournalCLI) throws -> String {
        let csv = try machine.run("sql", "select max(seq) from drinks", "--format", "csv").stdout
        return String(csv.split(separator: "\r\n").last ?? "")
    }

    /// What a daemon has logged so far.
    func log(_ path: String) throws -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// How many connections the server has to `database`.
    func connections(_ server: PostgresServer, database: String) throws -> Int {
        Int(try server.psql("select count(*) from pg_stat_activity where datname = '\(database)'")) ?? -1
    }

    @Test func aChangeOnOneMachineRingsTheOtherDaemon() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, now: nil, on: .postgres)
            let (a, b) = (joined.machines[0], joined.machines[1])
            // An hour between safety-net syncs: only the doorbell can bring the change in time.
            let (daemon, _) = try startDaemon(b, ["--interval", "1h"], socketPath: folder + "/b.sock", stderrPath: folder + "/b.log")
            defer { ProcessRunner.stop(daemon, signal: SIGTERM) }
            let database = HubFlavor.databaseAndRole(joined.hub).database
            #expect(try await eventually(.seconds(30)) { try log(folder + "/b.log").contains("listening to the hub:") })
            // Listening and syncing share the daemon's one connection: a server's slots go twice as far.
            #expect(try await eventually(.seconds(30)) { try connections(PostgresServer.shared, database: database) == 1 })
            try a.run("add", "espresso", "--note", "rung through")
            #expect(try a.run("sync").status == 0)
            #expect(try await eventually(.seconds(10)) { try notes(b).contains("rung through") })
            let status = try b.run("sync", "status").stdout
            #expect(status.contains("Notified     "), "\(status)")
            #expect(!status.contains("Notified     never"), "\(status)")
        }
    }

    /// A notification B missed because its listener was down is covered by a sync on reconnecting: B
    /// reaches the server through its Unix socket, which pg_hba.conf shuts to B's role while A (over
    /// TCP) publishes, so the change's notification rings for no one. With an hour between safety-net
    /// syncs, only the reconnection's sync can bring the change.
    @Test func aNotificationLostWhileTheListenerWasDownIsCoveredOnReconnecting() async throws {
        try await withTemporaryDirectory { folder in
            let server = PostgresServer.shared
            let (database, role, uri) = try server.makeDatabase(passwordFileIn: folder)
            let a = JournalCLI(home: folder + "/a", now: nil), b = JournalCLI(home: folder + "/b", now: nil)
            #expect(try a.run("sync", "init", "--hub", uri).status == 0)
            let overSocket = server.uri(database: database, role: role, socket: true)
            let joined = try b.run(["sync", "init", "--postgres", overSocket, "--key-file", "-"], stdin: try a.run("sync", "key").stdout)
            #expect(joined.status == 0, "\(joined.stderr)")
            let log = folder + "/b.log"
            let (daemon, _) = try startDaemon(b, ["--interval", "1h"], socketPath: folder + "/b.sock", stderrPath: log)
            defer { ProcessRunner.stop(daemon, signal: SIGTERM) }
            #expect(try await eventually(.seconds(30)) { try self.log(log).contains("listening to the hub:") })

            let rules = try server.addAccessRules("local all \(role) reject")
            var restored = false
            defer { if !restored { try? server.removeAccessRules(rules) } }
            _ = try server.psql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND client_addr IS NULL")
            // B's daemon has seen its listener go, and cannot listen again.
            let lost = try await eventually(.seconds(60)) {
                ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("not listening to the hub")
            }
            #expect(lost, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            // Not listening: B's one connection is gone (a terminated backend lingers a moment in
            // pg_stat_activity, as does each attempt pg_hba.conf turns away), and the server lets no other in.
            #expect(try await eventually(.seconds(30)) { try connections(server, database: database) == 0 })

            try a.run("add", "espresso", "--note", "rung for no one")
            #expect(try a.run("sync").status == 0)
            #expect(try notes(b).isEmpty)

            try server.removeAccessRules(rules)
            restored = true
            let arrived = try await eventually(.seconds(90)) { try notes(b).contains("rung for no one") }
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(arrived, "\(said)")
            #expect(said.contains("listening to the hub again"), "\(said)")
            #expect(daemon.isRunning)
        }
    }

    /// The server restarts while B's daemon applies a large first sync (B has read segments from the
    /// server and waits for its journal's write lock, which the test holds), and again while both
    /// daemons idle: they reconnect, and B ends with every drink once.
    @Test func daemonsOutliveServerRestartsAndApplyNothingTwice() async throws {
        try await withTemporaryDirectory { folder in
            let server = try PostgresServer(tls: true)
            defer { try? server.stop() }
            let (database, role, uri) = try server.makeDatabase(passwordFileIn: folder)
            let a = JournalCLI(home: folder + "/a", now: nil), b = JournalCLI(home: folder + "/b", now: nil)
            #expect(try a.run("sync", "init", "--postgres", uri).status == 0)
            // B's connections are named, to be told from A's in pg_stat_activity.
            #expect(try b.run(["sync", "init", "--postgres", uri + "&application_name=journal-b", "--key-file", "-"],
                              stdin: try a.run("sync", "key").stdout).status == 0)
            // B has its card on the hub, as a device that synced before: its daemon's sync then writes
            // nothing to its journal before applying (A's card, read at the start, is kept at the end).
            #expect(try b.run("sync").status == 0)
            #expect(try a.run(["import", "-"], stdin: SyncCrashTests.export(from: 0, count: 20_000)).status == 0)
            #expect(try a.run("sync").status == 0)

            let (daemonA, _) = try startDaemon(a, ["--interval", "1h"], socketPath: folder + "/a.sock", stderrPath: folder + "/a.log")
            defer { ProcessRunner.stop(daemonA, signal: SIGTERM) }
            let lock = try HeldWriteLock(database: b.databasePath)
            let (daemonB, _) = try startDaemon(b, ["--interval", "1h"], socketPath: folder + "/b.sock", stderrPath: folder + "/b.log")
            defer { ProcessRunner.stop(daemonB, signal: SIGTERM) }
            // The first restart lands in B's first sync: it has read segments from the server and
            // applied none, held by the journal's write lock.
            let read = try await eventually(.seconds(60)) {
                try server.psql("""
                    SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'journal-b'
                        AND query ILIKE '%SELECT first_position, last_position, bytes FROM%'
                    """) != "0"
            }
            #expect(read, "B's daemon did not read a segment")
            #expect(try count(b) == "0,0")
            try server.restart()
            lock.release()
            // The second while both daemons idle: B has every drink, and both listen again.
            let idle = try await eventually(.seconds(120)) {
                try count(b) == "20000,20000" && connections(server, database: database) == 2
                    && self.log(folder + "/a.log").contains("listening to the hub again") && self.log(folder + "/b.log").contains("listening to the hub again")
            }
            let afterFirst = try count(b)
            #expect(idle, "B has \(afterFirst) after the first restart")
            try server.restart()
            #expect(try a.run(["import", "-"], stdin: SyncCrashTests.export(from: 20_000, count: 500)).status == 0)
            let converged = try await eventually(.seconds(60)) { try count(b) == "20500,20500" }
            let log = try String(contentsOfFile: folder + "/b.log", encoding: .utf8)
            let counted = try count(b)
            #expect(converged, "\(counted); \(log)")
            // Every drink written once on B, however often a sync was cut short and begun again.
            #expect(try writes(b) == "20500")
            #expect(daemonA.isRunning && daemonB.isRunning)
            #expect(log.contains("listening to the hub again"), "\(log)")
            // A server gone mid-read is a hub out of reach, never a segment that cannot be applied.
            #expect(!log.contains("cannot be applied"), "\(log)")
            // Read as a person would; and the password is nowhere, in the logs or in the journals.
            let logs = log + (try String(contentsOfFile: folder + "/a.log", encoding: .utf8))
            // A daemon that crashed says so once, with its backtrace: shown whole, not a line at a time.
            #expect(!logs.contains("*** Signal"), "a daemon crashed: \(logs.suffix(6000))")
            for line in logs.split(separator: "\n") {
                #expect(!line.contains("..") && !line.contains(".)") && !line.contains(".;"), "\(line)")
            }
            #expect(!logs.contains("secret-\(role)"))
            for machine in [a, b] {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: machine.databasePath))
                    + ((try? Data(contentsOf: URL(fileURLWithPath: machine.databasePath + "-wal"))) ?? Data())
                #expect(bytes.range(of: Data("secret-\(role)".utf8)) == nil, "the password is in \(machine.databasePath)")
            }
        }
    }

    /// A journal moves from a folder hub to a PostgreSQL hub and back: every machine ends with every
    /// drink once, and the service's network follows the hub.
    @Test func machinesMoveBetweenAFolderAndAServerLosingNothing() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a", "b"])
            let (a, b) = (joined.machines[0], joined.machines[1])
            let dropIn = folder + "/a/.config/systemd/user/journal-sync.service.d/network-hub.conf"
            // The name an earlier release gave it: it gives way to the new one, so that one drop-in stands.
            let earlier = folder + "/a/.config/systemd/user/journal-sync.service.d/postgres-hub.conf"
            try a.run("add", "espresso", "--note", "before the move")
            try b.run("add", "cola", "--note", "from b")
            for machine in [a, b, a] { #expect(try machine.run("sync").status == 0) }
            #expect(!FileManager.default.fileExists(atPath: dropIn))

            try FileManager.default.createDirectory(atPath: (earlier as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "[Service]\nPrivateNetwork=no\n".write(toFile: earlier, atomically: true, encoding: .utf8)
            let server = try HubFlavor.postgres.newHub(in: folder + "/server")
            let moved = try a.run("sync", "init", "--postgres", server)
            #expect(moved.status == 0, "\(moved.stderr)")
            #expect(moved.stdout.contains("may now reach the network"), "\(moved.stdout)")
            #expect(FileManager.default.fileExists(atPath: dropIn))
            #expect(!FileManager.default.fileExists(atPath: earlier))
            try a.run("add", "tea", "--note", "after the move")
            #expect(try a.run("sync").status == 0)
            let key = try a.run("sync", "key").stdout
            #expect(try b.run(["sync", "init", "--postgres", server, "--key-file", "-"], stdin: key).status == 0)
            for machine in [b, a, b] { #expect(try machine.run("sync").status == 0) }
            let fresh = JournalCLI(home: folder + "/c")
            #expect(try fresh.run(["sync", "init", "--postgres", server, "--key-file", "-"], stdin: key).status == 0)
            #expect(try fresh.run("sync").status == 0)
            for machine in [a, b, fresh] {
                #expect(try count(machine) == "3,3", "\(machine.home)")
                #expect(Set(try notes(machine)) == ["before the move", "from b", "after the move"])
            }

            let back = try a.run(["sync", "init", "--folder", joined.hub])
            #expect(back.status == 0, "\(back.stderr)")
            #expect(back.stdout.contains("cut from the network again"), "\(back.stdout)")
            #expect(!FileManager.default.fileExists(atPath: dropIn))
            #expect(try a.run("add", "cola", "--note", "back on the folder").status == 0)
            #expect(try a.run("sync").status == 0)
            #expect(try b.run(["sync", "init", "--folder", joined.hub, "--key-file", "-"], stdin: key).status == 0)
            for machine in [b, a] { #expect(try machine.run("sync").status == 0) }
            for machine in [a, b] { #expect(try count(machine) == "4,4", "\(machine.home)") }
        }
    }

    /// The password asked for on the terminal (never on stdin, which carries the key), kept 0600
    /// beside the key, and used from then on.
    @Test func aPasswordAskedOnTheTerminalIsKeptForLaterSyncs() async throws {
        try await withTemporaryDirectory { folder in
            let server = PostgresServer.shared
            let (database, role) = try server.makeDatabase()
            let machine = JournalCLI(home: folder + "/a")
            let uri = server.uri(database: database, role: role)
            var environment = machine.environment
            environment["TERM"] = "dumb"
            let terminal = try TerminalSession(
                [JournalCLI.binary, "sync", "init", "--postgres", uri], environment: environment, screenPath: folder + "/terminal.txt")
            let prompt = "Password for \(role) on localhost:\(server.port): "
            #expect(try await terminal.waitUntilShown(prompt), "\(terminal.shown)")
            // Typed once the prompt is up: what is typed before it is flushed, as by ssh and sudo.
            terminal.type("secret-\(role)")
            let status = try await terminal.exitStatus()
            #expect(status == 0, "\(terminal.shown)")
            #expect(!terminal.shown.contains("secret-\(role)"), "the password was echoed: \(terminal.shown)")
            let kept = folder + "/a/.config/journal/postgres.pgpass"
            #expect(try permissions(kept) == 0o600)
            #expect(try String(contentsOfFile: kept, encoding: .utf8).contains(":\(database):\(role):secret-\(role)"))
            try machine.run("add", "espresso")
            let later = try machine.run("sync")
            #expect(later.status == 0, "\(later.stderr)")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// A PostgreSQL hub behind a real PgBouncer, as some managed services put one: in session mode the
/// doorbell rings as on a direct connection; in transaction mode notifications never arrive, and the
/// daemon says so, `sync status` says so, and changes still come, by polling.
@Suite(.onTestThreads, .timeLimit(.minutes(5))) struct PoolerTests {
    let server = PostgresServer.shared

    /// Two machines joined to a new hub through a pooler in `mode`, their daemons to be started.
    func machines(in folder: String, mode: PgBouncer.PoolMode, tls: Bool = false) throws -> (JournalCLI, JournalCLI, PgBouncer) {
        let (database, role) = try server.makeDatabase()
        let bouncer = try PgBouncer(in: folder, server: server, role: role, mode: mode, tls: tls)
        let passwords = try server.writePasswordFile(role: role, in: folder)
        let uri = bouncer.uri(database: database, role: role) + "&passfile=" + passwords
        let a = JournalCLI(home: folder + "/a", now: nil), b = JournalCLI(home: folder + "/b", now: nil)
        let made = try a.run("sync", "init", "--postgres", uri)
        guard made.status == 0 else { throw CLIFailure(result: made) }
        let joined = try b.run(["sync", "init", "--postgres", uri, "--key-file", "-"], stdin: try a.run("sync", "key").stdout)
        guard joined.status == 0 else { throw CLIFailure(result: joined) }
        return (a, b, bouncer)
    }

    func log(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test func behindATransactionModePoolerTheDaemonSaysNotificationsDoNotArriveAndPolls() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, bouncer) = try machines(in: folder, mode: .transaction)
            defer { bouncer.stop() }
            // An hour between safety-net syncs: what brings the change is the doorbell's polling.
            let (daemon, _) = try startDaemon(b, ["--interval", "1h"], socketPath: folder + "/b.sock", stderrPath: folder + "/b.log")
            defer { ProcessRunner.stop(daemon, signal: SIGTERM) }
            #expect(try await eventually(.seconds(60)) { log(folder + "/b.log").contains("notifications do not arrive") }, "\(log(folder + "/b.log"))")
            #expect(log(folder + "/b.log").contains("syncing every 30 s until they do"), "\(log(folder + "/b.log"))")
            let status = try b.run("sync", "status")
            #expect(status.stdout.contains("Warning      notifications do not arrive: a pooler in transaction mode"), "\(status.stdout)")
            try a.run("add", "espresso", "--note", "polled through the pooler")
            #expect(try a.run("sync").status == 0)
            #expect(try await eventually(.seconds(90)) { try notes(b).contains("polled through the pooler") })
            // Said once, not at every poll.
            #expect(log(folder + "/b.log").components(separatedBy: "notifications do not arrive").count == 2, "\(log(folder + "/b.log"))")
        }
    }

    @Test func behindASessionModePoolerTheDoorbellRings() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, bouncer) = try machines(in: folder, mode: .session)
            defer { bouncer.stop() }
            let (daemon, _) = try startDaemon(b, ["--interval", "1h"], socketPath: folder + "/b.sock", stderrPath: folder + "/b.log")
            defer { ProcessRunner.stop(daemon, signal: SIGTERM) }
            #expect(try await eventually(.seconds(30)) { log(folder + "/b.log").contains("listening to the hub:") })
            let status = try b.run("sync", "status")
            #expect(!status.stdout.contains("notifications do not arrive"), "\(status.stdout)")
            #expect(status.stdout.contains("TLS          not used"), "\(status.stdout)")
            try a.run("add", "espresso", "--note", "rung through the pooler")
            #expect(try a.run("sync").status == 0)
            // Rung, well before any poll could bring it.
            #expect(try await eventually(.seconds(20)) { try notes(b).contains("rung through the pooler") })
            #expect(!log(folder + "/b.log").contains("notifications do not arrive"), "\(log(folder + "/b.log"))")
        }
    }

    /// `sync status` says the TLS of this machine's own connection: to a pooler reached over TLS that
    /// reaches the server over a plain Unix socket, TLS. The server's pg_stat_ssl, which it read
    /// before, describes the pooler's link, not this machine's.
    @Test func theTLSSaidIsThisMachinesOwnNotThePoolers() async throws {
        try await withTemporaryDirectory { folder in
            let (a, _, bouncer) = try machines(in: folder, mode: .session, tls: true)
            defer { bouncer.stop() }
            let status = try a.run("sync", "status")
            #expect(status.stdout.contains("TLS          TLSv1.") && status.stdout.contains("certificate and host name verified"),
                    "\(status.stdout)\(status.stderr)")
            // The pooler's links to the server, kept in its pool: no TLS.
            let database = try #require(try a.json("sync", "status", "--json") as? [String: Any])["hub"] as? String ?? ""
            let name = database.split(separator: "?")[0].split(separator: "/").last.map(String.init) ?? ""
            let seen = try server.psql("SELECT count(*) || ',' || bool_or(ssl) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE datname = '\(name)'")
            #expect(seen.hasSuffix(",false") && !seen.hasPrefix("0,"), "\(seen)")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// `journal sync status` against a server that stalls, before it answers anything or mid-way through
/// its answers: it answers within the connection string's connect timeout, with what the journal knows
/// and that the server did not answer. Each of its calls waited 120 s before (issue 31).
@Suite(.onTestThreads, .timeLimit(.minutes(5))) struct StalledServerStatusTests {
    /// Where the server stalls: before it answers anything (nil), or at the statement of `sync status`
    /// that reads `table` (opening the hub, listing the logs, reading the cards), which waits for a lock
    /// until the whole server is frozen under it.
    @Test(arguments: [nil, "journal_hub.hub", "journal_hub.segments", "journal_hub.cards"] as [String?])
    func statusAnswersWithinTheConnectTimeoutWhenTheServerStalls(at table: String?) async throws {
        try await withTemporaryDirectory { folder in
            let server = try PostgresServer(tls: true)
            defer { try? server.stop() }
            let uri = try server.newHub(in: folder).replacingOccurrences(of: "connect_timeout=60", with: "connect_timeout=5")
            let machine = JournalCLI(home: folder + "/a", now: nil)
            #expect(try machine.run("sync", "init", "--postgres", uri).status == 0)
            try machine.run("add", "espresso")
            #expect(try machine.run("sync").status == 0)
            let database = HubFlavor.databaseAndRole(uri).database
            let lock = try table.map { try HeldTableLock($0, database: database, on: server) }
            defer { lock?.release() }
            var frozen = table == nil ? try FrozenServer(server) : nil
            defer { frozen?.thaw() }

            let output = folder + "/status.txt"
            let began = ContinuousClock.now
            let status = try ProcessRunner.start(
                "/bin/sh", ["-c", "exec \"$0\" sync status > \"$1\" 2>&1", JournalCLI.binary, output], environment: machine.environment)
            defer { ProcessRunner.stop(status) }
            if table != nil {
                let waiting = try await eventually(.seconds(60)) {
                    try server.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'") != "0"
                }
                try #require(waiting, "sync status never waited for the lock on \(table ?? "")")
                frozen = try FrozenServer(server)
            }
            // Far more than the 5 s it is allowed, far less than the 120 s each call took before.
            let ended = try await eventually(.seconds(60)) { !status.isRunning }
            let took = ContinuousClock.now - began
            let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            try #require(ended, "sync status still ran \(took) after it began\n\(said)")
            #expect(status.terminationStatus == 0, "\(said)")
            #expect(said.contains("This device") && said.contains("Last sync"), "\(said)")
            #expect(said.contains("Hub problem") && said.contains("the server did not answer within 5 s"), "took \(took):\n\(said)")
        }
    }
}

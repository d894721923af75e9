import Foundation
import Testing
import TestSupport

/// The PostgreSQL doorbell's payload names the device that published, and a woken daemon reads that
/// log alone. Anyone who may connect to the database can ring with any payload: a ring is a hint,
/// never a fact, so a forged one costs a read and loses nothing.
@Suite(.onTestThreads, .timeLimit(.minutes(5))) struct ForgedRingTests {
    @Test func aForgedRingCostsAReadAndLosesNothing() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, now: nil, on: .postgres)
            let (a, b) = (joined.machines[0], joined.machines[1])
            let log = folder + "/b.log"
            // An hour between safety-net syncs: what B syncs, a ring started.
            let (daemon, socket) = try startDaemon(b, ["--interval", "1h"], socketPath: folder + "/b.sock", stderrPath: log)
            defer { ProcessRunner.stop(daemon, signal: SIGTERM) }
            #expect(try await eventually(.seconds(30)) { try String(contentsOfFile: log, encoding: .utf8).contains("listening to the hub:") })
            try a.run("add", "espresso", "--note", "before")
            #expect(try a.run("sync").status == 0)
            #expect(try await eventually(.seconds(30)) { try notes(b).contains("before") })
            while socket.receive(timeout: .milliseconds(200)) != nil {}

            let database = HubFlavor.databaseAndRole(joined.hub).database
            let payloads = [
                "'\(try a.deviceID())'",  // a device that published nothing since
                "'\(UUID().uuidString.lowercased())'",  // a device no one knows
                "chr(27) || ']0;owned' || chr(7) || chr(27) || '[31mred'",  // words for the terminal
                "repeat('x', 7999)",  // the longest payload the server takes
            ]
            for payload in payloads {
                _ = try PostgresServer.shared.psql("SELECT pg_notify('journal_hub', \(payload))", database: database)
                // Each ring is a sync that reads and finds nothing wrong.
                let statuses = socket.receive(until: { $0.hasPrefix("STATUS=Last sync") || $0.hasPrefix("STATUS=Sync failed") }, timeout: .seconds(30))
                #expect(statuses?.last?.hasPrefix("STATUS=Last sync") == true, "\(payload): \(statuses ?? [])")
            }
            try a.run("add", "espresso", "--note", "after")
            #expect(try a.run("sync").status == 0)
            #expect(try await eventually(.seconds(30)) { try notes(b).contains("after") })
            let status = try b.run("sync", "status")
            #expect(status.status == 0 && !status.stdout.contains("failed"), "\(status.stdout)")
            let written = try String(contentsOfFile: log, encoding: .utf8)
            #expect(!written.contains("\u{1b}") && !written.contains("error"), "\(written)")
            #expect(try notes(b).sorted() == ["after", "before"])
        }
    }
}

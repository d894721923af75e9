import Foundation
import Testing
import TestSupport

/// A server that stops at any moment of a daemon's first sync (its card, keys and segments on the way):
/// the daemon neither crashes nor hangs, and answers the next request with a failure it will retry.
/// (`PostgresOutageTests` once saw a daemon crash, and once one hang, when the server stopped right
/// after READY; this is that moment, at random points, on a fresh device each round. It hung for good
/// when a query or a TLS or PostgreSQL opening was handed to a connection as it closed.) The time limit
/// only guards against a hang, which each round's 20 s would show first: fifteen rounds of two daemons
/// and a server restart took 288 s and 328 s of whole test runs here, against the 300 s it once had.
@Suite(.onTestThreads, .timeLimit(.minutes(20))) struct ServerStopMidSyncTests {
    @Test func aServerStoppingAtAnyMomentOfAFirstSyncNeitherCrashesNorHangsTheDaemon() async throws {
        try await withTemporaryDirectory { folder in
            let server = try PostgresServer(tls: true)
            defer { try? server.stop() }
            let uri = try server.newHub(in: folder)
            let a = JournalCLI(home: folder + "/a", now: nil)
            #expect(try a.run("sync", "init", "--postgres", uri).status == 0)
            let key = try a.run("sync", "key").stdout
            for round in 0..<15 {
                let b = JournalCLI(home: folder + "/m\(round)", now: nil)
                #expect(try b.run(["sync", "init", "--postgres", uri, "--key-file", "-"], stdin: key).status == 0)
                try b.run("add", "espresso")
                let (daemonA, _) = try startDaemon(a, ["--interval", "1h"], socketPath: folder + "/a\(round).sock", stderrPath: folder + "/a\(round).log")
                defer { ProcessRunner.stop(daemonA, signal: SIGKILL) }
                let (daemonB, socketB) = try startDaemon(b, ["--interval", "1h"], socketPath: folder + "/b\(round).sock", stderrPath: folder + "/b\(round).log")
                // Anywhere in the first sync of the new device and of the daemon beside it.
                usleep(UInt32.random(in: 0...600_000))
                try server.stop()
                kill(daemonB.processIdentifier, SIGUSR1)
                let status = socketB.receive(until: { $0.hasPrefix("STATUS=Sync failed") }, timeout: .seconds(20))
                let logged = (try? String(contentsOfFile: folder + "/b\(round).log", encoding: .utf8)) ?? ""
                if status == nil || logged.contains("Program crashed") || logged.contains("Fatal error") {
                    Issue.record("round \(round): no failure answered within 20 s, or a crash:\n\(logged.prefix(8000))")
                    ProcessRunner.stop(daemonB, signal: SIGKILL)
                    return
                }
                ProcessRunner.stop(daemonB, signal: SIGTERM)
                // Taking connections again before the next round's `sync init`.
                try server.restart()
            }
        }
    }
}

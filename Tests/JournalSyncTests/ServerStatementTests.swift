import Foundation
import JournalKit
import PostgresHub
import Testing
import TestSupport

@testable import JournalSync

/// What a sync costs a PostgreSQL server, in the statements it sends: the server logs every statement
/// of this test's own role (`log_statement` set on the role), and none of the other tests' roles.
@Suite(.onTestThreads) struct ServerStatementTests {
    @Test func aSyncWithNothingToDoIsOneStatementAndSoIsARingsRead() async throws {
        try await withTemporaryDirectory { folder in
            let server = PostgresServer.shared
            let (database, role, uri) = try server.makeDatabase(passwordFileIn: folder)
            _ = try server.psql("ALTER ROLE \(role) SET log_statement = 'all'")
            let place = try PostgresPlace(connectionString: uri)
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            let b = try await Machine.make(folder, name: "b", place: place, key: key, invitedBy: a)
            // Settled: each has read the other's card, and vouched for it.
            for machine in [a, b, a, b] { try await machine.sync() }

            /// The statements `role`'s sessions sent while `body` ran, between two markers of its own.
            func statements(_ body: () async throws -> SyncReport) async throws -> (count: Int, report: SyncReport) {
                let marker = UUID().uuidString
                _ = try server.psql("SELECT 'before \(marker)'", database: database, role: role)
                let report = try await body()
                _ = try server.psql("SELECT 'after \(marker)'", database: database, role: role)
                let log = try String(contentsOfFile: server.folder + "/server.log", encoding: .utf8)
                let start = try #require(log.range(of: "before \(marker)"))
                let end = try #require(log.range(of: "after \(marker)", range: start.upperBound..<log.endIndex))
                let lines = log[start.upperBound..<end.lowerBound].split(separator: "\n")
                return (lines.filter { $0.contains("LOG:  execute") }.count, report)
            }

            let idle = try await statements { try await b.sync() }
            #expect(idle.count == 1 && idle.report.received == 0, "\(idle)")
            _ = try await a.store.add(drink(note: "rung"))
            try await a.sync()
            // The listing of the one log, its new segment's bytes with it.
            let rang = try await statements { try await b.sync(.logs([a.store.deviceID])) }
            #expect(rang.count == 1 && rang.report.received == 1, "\(rang)")
            await a.engine.close()
            await b.engine.close()
        }
    }
}

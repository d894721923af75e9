import Foundation
import JournalKit
import JournalSync
import PostgresNIO
import Testing
import TestSupport

@testable import PostgresHub

/// A sync's read of a PostgreSQL hub costs what is new, not what the table holds: the plan the server
/// makes for it on a hub of many rows, as the hub's own connection runs it.
@Suite(.onTestThreads) struct AnchoredReadPlanTests {
    /// A range of the primary key for each device, never the whole table, and no JIT even where the
    /// server's defaults have it on (as behind a pooler, where the connection's own `SET jit = off` may
    /// reach another session): the planner's estimate for the ranges passed `jit_above_cost`, and
    /// compiling the plan took 200-350 ms of every sync on a hub of a million rows; pulled up into a
    /// join, the ranges were a scan of the table.
    @Test func theReadOfALargeHubIsARangeOfTheIndexForEachDeviceWithoutJIT() async throws {
        try await withTemporaryDirectory { folder in
            let server = PostgresServer.shared
            let (database, _, uri) = try server.makeDatabase(passwordFileIn: folder)
            try await PostgresPlace(connectionString: uri).make(key: SyncKey(), shared: false).close()
            try server.psql("""
                INSERT INTO journal_hub.segments (device, first_position, last_position, bytes)
                SELECT d.id, n, n, '\\x00'::bytea FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, 30)) d,
                    generate_series(1, 10000) AS n;
                ANALYZE journal_hub.segments;
                """, database: database)
            let devices = try server.psql("SELECT DISTINCT device FROM journal_hub.segments", database: database).split(separator: "\n")
            let positions = Dictionary(uniqueKeysWithValues: devices.map { (DeviceID(rawValue: String($0)), Int64(10000)) })
            let query = PostgresHub.listing(after: positions)
            let link = try await PostgresConnector(location: try PostgresLocation.parse(uri)).connect()
            let plan = try await link.run { connection in
                var lines: [String] = []
                try await connection.query("SET jit = on", logger: PostgresConnector.quiet)
                try await connection.query("SET jit_above_cost = 100000", logger: PostgresConnector.quiet)
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "EXPLAIN (ANALYZE, FORMAT TEXT) " + query.sql, binds: query.binds), logger: PostgresConnector.quiet)
                for try await line in rows.decode(String.self) { lines.append(line) }
                return lines.joined(separator: "\n")
            }
            await link.close()
            #expect(!plan.contains("Seq Scan"), "\(plan)")
            #expect(!plan.contains("JIT:"), "\(plan)")
            #expect(plan.contains("segments_pkey"), "\(plan)")
            // Every device is at its top here: none of their ranges is probed.
            #expect(plan.contains("One-Time Filter") && plan.contains("never executed"), "\(plan)")
        }
    }
}

import Foundation
import JournalKit
import JournalSync
import PostgresNIO
import Testing
import TestSupport

@testable import PostgresHub

/// A call's time limit counts the server's silence, not the call's length: a first sync listing a
/// million rows on a slow or busy machine was failed as "the server did not answer within 120 s"
/// while the rows kept coming. A server that stops answering still fails the call in time. The suite's
/// limit only catches a hang: in the whole suite on two cores, making each test's database takes
/// longer than the calls measured (a trickling test took 105-128 s there, its call 20 s).
@Suite(.onTestThreads, .timeLimit(.minutes(6))) struct CallSilenceTests {
    @Test func anAnswerThatKeepsComingOutlastsTheLimit() async throws {
        try await withTemporaryDirectory { folder in
            let link = try await openTestLink(in: folder)
            // Twelve rows 1 s apart, each larger than the server's 8 KiB output buffer, so each is sent
            // as it is made: 12 s of answer against a limit of 10 s of silence, which a silence of a
            // second between rows stays far from on a busy machine.
            let count = try await link.run(within: 10) { connection in
                var count = 0
                let rows = try await connection.query(
                    "SELECT repeat('x', 20000) || pg_sleep(1)::text FROM generate_series(1, 12)", logger: PostgresConnector.quiet)
                for try await _ in rows { count += 1 }
                return count
            }
            #expect(count == 12)
            await link.close()
        }
    }

    /// A server that keeps a call alive with a row now and then (one that means harm) holds it for
    /// `Deadline.ceiling` limits at most: 2 s of silence allowed, rows 0.5 s apart for 30 s, cut at 20 s.
    /// A call not cut would end well after 30 s, so the failure alone says it was cut: a clock, which a
    /// loaded machine holds back (73 s once for a 5 s deadline), would say less.
    @Test func anAnswerThatTricklesOnIsCutAtTheCeiling() async throws {
        try await withTemporaryDirectory { folder in
            let link = try await openTestLink(in: folder)
            await #expect(throws: SyncError.self) {
                try await link.run(within: 2) { connection in
                    let rows = try await connection.query(
                        "SELECT repeat('x', 20000) || pg_sleep(0.5)::text FROM generate_series(1, 60)", logger: PostgresConnector.quiet)
                    for try await _ in rows {}
                }
            }
        }
    }

    /// Silent for 30 s against a limit of 1 s: a call that waited it out would succeed.
    @Test func aServerSilentPastTheLimitFailsTheCall() async throws {
        try await withTemporaryDirectory { folder in
            let link = try await openTestLink(in: folder)
            await #expect(throws: SyncError.self) {
                try await link.run(within: 1) { connection in
                    try await connection.query("SELECT pg_sleep(30)", logger: PostgresConnector.quiet)
                }
            }
            // The connection is closed for it: the next call opens another.
            try await link.channel.closeFuture.get()
        }
    }
}

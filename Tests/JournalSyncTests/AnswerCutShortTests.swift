import Foundation
import JournalKit
import JournalSync
import PostgresNIO
import Testing
import TestSupport

@testable import PostgresHub

/// A server whose connection ends while rows are still on their way (a restart, an administrator's
/// pg_terminate_backend): the call fails as a lost connection, and the process goes on. Read through
/// PostgresNIO's row sequence, such an answer failed a precondition in PostgresNIO 1.33.2 and took a
/// daemon down with SIGILL, seen in a whole test run (`WholeAnswer.swift` says why).
@Suite(.onTestThreads, .timeLimit(.minutes(6))) struct AnswerCutShortTests {
    @Test(arguments: 1...5)
    func anAnswerCutShortFailsTheCall(_ round: Int) async throws {
        try await withTemporaryDirectory { folder in
            let link = try await openTestLink(in: folder)
            let backend = try await link.run { try await $0.rows("SELECT pg_backend_pid()") { try $0.decode(Int32.self) }.first ?? 0 }
            // Two hundred megabytes, more than the sockets hold: the server is still sending when it
            // is told to end, with the client's buffers full.
            let answer = Task {
                try await link.run(within: 120) { connection in
                    try await connection.rows("SELECT repeat('x', 100000) FROM generate_series(1, 2000)") { try $0.decode(String.self).count }
                }
            }
            let server = PostgresServer.shared
            // Only a hang ends this wait early.
            let deadline = ContinuousClock.now + .seconds(120)
            var sending = false
            while !sending, ContinuousClock.now < deadline {
                sending = try server.psql("SELECT count(*) FROM pg_stat_activity WHERE pid = \(backend) AND state = 'active'") == "1"
                if !sending { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(sending, "the answer was never being sent")
            #expect(try server.psql("SELECT pg_terminate_backend(\(backend))") == "t")
            await #expect(throws: SyncError.self) { _ = try await answer.value }
            await link.close()
        }
    }
}

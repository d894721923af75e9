import Foundation
import JournalKit
import JournalSync
import PostgresNIO
import Synchronization
import Testing
import TestSupport

@testable import PostgresHub

/// PostgresNIO 1.33 waits forever for a query sent on a connection that is already closed (its fix,
/// #487, was reverted in #501; a listener on a closed connection deadlocks too, #600). The hub never
/// sends one: `PostgresLink` checks first, and a listener ends with its connection.
@Suite(.onTestThreads, .timeLimit(.minutes(6))) struct ClosedConnectionTests {
    /// What the guard is for, on the pinned PostgresNIO: a query on a closed connection never ends.
    /// If this starts failing, PostgresNIO fails such queries by itself and the guard may go.
    @Test func aQueryOnAClosedConnectionHangsInPostgresNIO() async throws {
        try await withTemporaryDirectory { folder in
            let link = try await openTestLink(in: folder)
            await link.close()
            #expect(link.isClosed)
            // Raced against five seconds, and left waiting for good if it hangs: a task group would
            // wait for it too, and cancelling it does not end it.
            let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let first = FirstAnswer(continuation)
                Task {
                    _ = try? await link.connection.query("SELECT 1", logger: PostgresConnector.quiet)
                    first.answer(true)
                }
                Task {
                    try? await Task.sleep(for: .seconds(5))
                    first.answer(false)
                }
            }
            #expect(!finished, "PostgresNIO now ends a query on a closed connection: PostgresLink's guard may go")
        }
    }

    @Test func theHubNeverSendsOneAndSaysTheConnectionWasLost() async throws {
        try await withTemporaryDirectory { folder in
            let link = try await openTestLink(in: folder)
            await link.close()
            await #expect(throws: SyncError.self) {
                _ = try await link.run { try await $0.query("SELECT 1", logger: PostgresConnector.quiet) }
            }
        }
    }
}

extension ClosedConnectionTests {
    /// A listener whose connection the server ends (an administrator's pg_terminate_backend, a
    /// restart) ends with it, said as a lost connection, so the daemon reconnects.
    @Test func aListenerEndsWithItsConnection() async throws {
        try await withTemporaryDirectory { folder in
            let server = PostgresServer.shared
            let (database, _, uri) = try server.makeDatabase(passwordFileIn: folder)
            let place = try PostgresPlace(connectionString: uri)
            let hub = try #require(try await place.make(key: SyncKey(), shared: false) as? PostgresHub)
            let (listening, listened) = AsyncStream.makeStream(of: Void.self)
            let listener = Task {
                try await hub.listen(ownDevice: DeviceID(rawValue: UUIDText.random()), clock: SystemClock()) { sign in
                    if sign == .listening { listened.yield() }
                }
            }
            for await _ in listening { break }
            // The hub's one connection, listening (and a test ring's, if it is still there).
            try server.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)'")
            let result = await listener.result
            #expect(throws: SyncError.self) { try result.get() }
            await hub.close()
        }
    }
}

/// Resumes a continuation with the first answer given; later ones are dropped.
private final class FirstAnswer: Sendable {
    private let waiting: Mutex<CheckedContinuation<Bool, Never>?>

    init(_ continuation: CheckedContinuation<Bool, Never>) { waiting = Mutex(continuation) }

    func answer(_ value: Bool) {
        waiting.withLock { continuation in
            continuation?.resume(returning: value)
            continuation = nil
        }
    }
}

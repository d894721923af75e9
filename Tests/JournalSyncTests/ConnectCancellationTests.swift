import Foundation
import JournalKit
import JournalSync
import Testing
import TestSupport

@testable import PostgresHub

import Glibc

/// A daemon shutting down while its doorbell reconnects to a server that takes the connection and
/// never answers must not wait out the connect timeout: NIO's connect and PostgresNIO's start-up do
/// not heed cancellation, so the connector stops waiting for them itself.
@Suite(.onTestThreads) struct ConnectCancellationTests {
    /// A listening socket nobody reads, on loopback, and its port: the kernel completes the handshake,
    /// and the start-up message waits for an answer that never comes.
    static func silentServer() throws -> (socket: Int32, port: Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, Glibc.listen(listener, 4) == 0 else { throw FixtureError("cannot listen on loopback") }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test func aCancelledConnectEndsAtOnceThoughTheServerNeverAnswers() async throws {
        let (listener, port) = try Self.silentServer()
        defer { close(listener) }
        let place = try PostgresPlace(connectionString: "postgresql://nobody@127.0.0.1:\(port)/journal?sslmode=disable&connect_timeout=600")

        let started = ContinuousClock.now
        let asking = Task { try await place.hubExists() }
        // Once the connection is there, the call waits on the server.
        let accepted = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: accept(listener, nil, nil)) }
        }
        defer { close(accepted) }
        asking.cancel()
        let result = await asking.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(ContinuousClock.now - started < .seconds(300), "the cancelled connect waited \(ContinuousClock.now - started)")
    }

    /// The limit a person set is the one kept, and the one they are told of: PostgresNIO bounded the
    /// start-up by ten seconds of its own, and the message said the connection string's.
    @Test func aServerThatNeverAnswersIsGivenTheConnectTimeoutItWasGiven() async throws {
        let (listener, port) = try Self.silentServer()
        defer { close(listener) }
        let place = try PostgresPlace(connectionString: "postgresql://nobody@127.0.0.1:\(port)/journal?sslmode=disable&connect_timeout=13")
        let started = ContinuousClock.now
        let error = await #expect(throws: SyncError.self) { _ = try await place.hubExists() }
        #expect(ContinuousClock.now - started >= .seconds(13), "gave up after \(ContinuousClock.now - started)")
        #expect(error?.hubCondition == .unreachable)
        #expect(error?.description.contains("the server did not answer within 13 s") == true, "\(String(describing: error))")
    }
}

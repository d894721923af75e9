import Synchronization
import Testing
import TestSupport

@testable import HTTPHubSupport

/// A process's requests to one server wait their turn rather than fail in the client's queue.
@Suite(.onTestThreads) struct RequestGateTests {
    @Test func noMoreThanTheLimitGoAtOnceAndEveryOneGoes() async throws {
        let gate = RequestGate(limit: 3)
        let counts = Counts()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await gate.enter()
                    counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                    await Task.yield()
                    counts.withLock { $0.now -= 1; $0.done += 1 }
                    gate.leave()
                }
            }
            try await group.waitForAll()
        }
        let final = counts.withLock { $0 }
        #expect(final.done == 40 && final.most <= 3 && final.now == 0)
    }

    final class Counts: Sendable {
        private let counts = Mutex((now: 0, most: 0, done: 0))
        func withLock<T>(_ body: (inout (now: Int, most: Int, done: Int)) -> T) -> T { counts.withLock { body(&$0) } }
    }

    @Test func aWaiterThatIsCancelledLeavesTheQueue() async throws {
        let gate = RequestGate(limit: 1)
        try await gate.enter()
        let waiter = Task { try await gate.enter() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        gate.leave()
        // The turn it would have had is free.
        try await gate.enter()
        gate.leave()
    }
}

import Foundation
import Testing

/// Threads for tests' tasks, as many as they block: a thread is started whenever a job finds none idle.
///
/// Swift's global executor has one thread per core, two on the machines that run CI, and tests block
/// threads all the time (a process waited for, a notify socket read with a timeout, a `psql`). Two
/// such tests held the whole pool, and every other test's task waited behind them: a write timed at
/// 17 s against SQLite's 15 s busy timeout, a PostgreSQL connection given up after 60 s of its steps
/// waiting for a thread. A test that blocks here holds only a thread of its own.
public final class TestThreadPool: TaskExecutor, @unchecked Sendable {
    public static let shared = TestThreadPool()

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    /// Threads waiting for a job.
    private var idle = 0
    private var threads = 0
    /// Enough for every test that runs at once to block, and a bound on a burst of short jobs.
    private let maximum = 64

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        // Each idle thread takes one job: more jobs waiting than idle threads is a thread more.
        let start = jobs.count - head > idle && threads < maximum
        if start { threads += 1 }
        condition.signal()
        condition.unlock()
        if start { Thread { [self] in work() }.start() }
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            idle += 1
            while head == jobs.count { condition.wait() }
            idle -= 1
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}

/// Runs each test of a suite with `TestThreadPool` preferred for its tasks, so that what it blocks
/// is a thread of its own, never one of Swift's few that every other test needs to go on. Every suite
/// of this package carries it (`OnTestThreadsTests` checks).
public struct OnTestThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(TestThreadPool.shared) { try await function() }
    }
}

extension Trait where Self == OnTestThreads {
    /// Each test's tasks on threads of their own (`TestThreadPool`).
    public static var onTestThreads: Self { OnTestThreads() }
}

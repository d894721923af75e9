import JournalKit
import NIOCore
import NIOPosix

import Glibc

/// Runs actors, and the tasks that prefer it, on a NIO event loop.
///
/// A hub's connection runs there anyway; on Swift's global executor instead, the first ring after an
/// idle while started libdispatch's worker threads (a ring's sync waited for a new thread), and they
/// ended again a few seconds later: wake-ups of an idle daemon, 50 times over on a server with 50
/// devices.
///
/// Two executors on one loop are one execution context (`isSameExclusiveExecutionContext`): a call
/// from an actor on one to an actor on the other runs at once, on the same thread, instead of being
/// queued behind a wake-up. The daemon runs its loop, its journal store and its hub's connection on
/// one loop of its own (`ownThread`), so a doorbell's ring is read, synced and written without a
/// single hand-off between threads.
public final class EventLoopExecutor: SerialExecutor, TaskExecutor, StoreExecutor {
    public let loop: any EventLoop

    public init(_ loop: any EventLoop) { self.loop = loop }

    /// An executor on an event loop of its own, one thread that nothing else uses; nil when fewer than
    /// `spareDescriptors` can be opened. A loop takes three (epoll, eventfd, timerfd), and NIO, or
    /// libdispatch after it, stops the process with a fatal error when one cannot be opened, where a
    /// program that runs out later says which of its files it could not open.
    public static func ownThread() -> EventLoopExecutor? {
        guard canOpen(spareDescriptors) else { return nil }
        return EventLoopExecutor(MultiThreadedEventLoopGroup(numberOfThreads: 1).next())
    }

    /// More than a loop and the daemon's every file need: its journal, WAL and locks, its watchers, its
    /// hub's connection.
    static let spareDescriptors = 32

    /// True when `count` more descriptors can be open at once now.
    private static func canOpen(_ count: Int) -> Bool {
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        for _ in 0..<count {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            opened.append(descriptor)
        }
        return true
    }

    /// The loop the calling thread runs, when it is an event loop's; else one of NIO's shared loops.
    public static func currentOrShared() -> any EventLoop {
        MultiThreadedEventLoopGroup.currentEventLoop ?? MultiThreadedEventLoopGroup.singleton.next()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let serial = asUnownedSerialExecutor()
        let task = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(isolatedTo: serial, taskExecutor: task) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(complexEquality: self) }

    public func isSameExclusiveExecutionContext(other: EventLoopExecutor) -> Bool { other.loop === loop }

    /// Lets the runtime's isolation checks confirm they run on this executor.
    public func checkIsolated() { loop.preconditionInEventLoop() }

    public func run<T>(_ body: @escaping @Sendable () throws -> sending T) async throws -> sending T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            loop.execute {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
        }
    }

    public var isCurrentThread: Bool { loop.inEventLoop }
}

import NIOCore

/// Runs a hub's actor, and the tasks it starts, on a NIO event loop: a thread its connections use
/// anyway. On Swift's global executor instead, the first ring after an idle while started
/// libdispatch's worker threads (a ring's sync waited for a new thread), and they ended again a few
/// seconds later: wake-ups of an idle daemon, 50 times over on a server with 50 devices.
final class EventLoopExecutor: SerialExecutor, TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let serial = asUnownedSerialExecutor()
        let task = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(isolatedTo: serial, taskExecutor: task) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    /// Lets the runtime's isolation checks confirm they run on this executor.
    func checkIsolated() { loop.preconditionInEventLoop() }
}

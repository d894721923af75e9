/// Where a `JournalStore` runs its SQLite calls, which block: a serial executor, and a task executor
/// that code talking to the store can prefer so that its calls hand nothing between threads.
/// `SerialThreadExecutor` is a thread of its own; the daemon's is the event loop its hub's connection
/// runs on (`EventLoopExecutor`), where waiting on SQLite holds up nothing else.
public protocol StoreExecutor: SerialExecutor, TaskExecutor {
    /// Runs `body` there, in turn with the actor's jobs, and returns its result: for work that must
    /// happen there before the actor exists, such as opening its database.
    func run<T>(_ body: @escaping @Sendable () throws -> sending T) async throws -> sending T

    /// True on the executor's thread.
    var isCurrentThread: Bool { get }
}

import Dispatch

import Glibc

/// A serial executor that runs its jobs on one thread of its own.
///
/// `JournalStore` runs on it because SQLite calls block: a busy wait for another process's write lock
/// can last seconds, and on Swift's cooperative pool (one thread per core) that would stall unrelated
/// tasks, such as the daemon's signal handling.
///
/// It is also a task executor: a short-lived command that prefers it
/// (`withTaskExecutorPreference`) runs its own code on the store's thread too, so its awaits on the
/// store are plain calls instead of thread hand-offs, each of which costs a wake-up.
public final class SerialThreadExecutor: StoreExecutor, @unchecked Sendable {
    private let queue = JobQueue()

    /// An executor for the calling thread, which starts no thread: for a command that does all its
    /// work synchronously on this thread, through `assumeIsolated` (the everyday commands' fast path).
    /// Nothing may be enqueued on it: there is no thread to run it.
    public static func callingThread() -> SerialThreadExecutor {
        SerialThreadExecutor(callingThread: ())
    }

    private init(callingThread: Void) {
        queue.adoptCallingThread()
    }

    public init() {
        let queue = self.queue
        let serial = UnownedSerialExecutor(ordinary: self)
        let task = UnownedTaskExecutor(ordinary: self)
        let body = ThreadBody { queue.drain(isolatedTo: serial, taskExecutor: task) }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(body).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            // Out of threads (a TasksMax limit, say): a serial dispatch queue keeps the jobs serial,
            // on whichever pool thread dispatch can find, rather than never running them.
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            queue.fallback = DispatchQueue(label: "journal.serial-executor")
        }
    }

    deinit { queue.close() }

    public func enqueue(_ job: consuming ExecutorJob) {
        precondition(!queue.isCallingThreadOnly, "a job was sent to the calling thread's executor, which runs none")
        let job = UnownedJob(job)
        if let fallback = queue.fallback {
            let serial = asUnownedSerialExecutor()
            let task = asUnownedTaskExecutor()
            fallback.async { job.runSynchronously(isolatedTo: serial, taskExecutor: task) }
        } else {
            queue.push(.job(job))
        }
    }

    /// Runs `body` on this executor's thread, in turn with the actor's jobs, and returns its result.
    /// For work that must happen there before the actor exists, such as opening its database.
    public func run<T>(_ body: @escaping @Sendable () throws -> sending T) async throws -> sending T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let work: @Sendable () -> Void = {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
            if let fallback = queue.fallback { fallback.async(execute: work) } else { queue.push(.closure(work)) }
        }
    }

    /// True on this executor's thread: lets tests check that the store's work really runs there.
    public var isCurrentThread: Bool { queue.isDrainingThread() }

    /// Lets `assumeIsolated` and the runtime's isolation checks confirm they run on this executor,
    /// rather than trapping because it cannot tell.
    public func checkIsolated() {
        precondition(isCurrentThread || queue.fallback != nil, "not on the journal store's thread")
    }
}

private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Jobs waiting for the executor's thread, guarded by a pthread mutex and condition variable.
private final class JobQueue: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private var jobs: [Work] = []
    private var head = 0
    private var closed = false
    private var drainingThread: pthread_t?
    /// True for the calling thread's executor: no thread drains this queue.
    private(set) var isCallingThreadOnly = false
    /// Set once, before any job, when no thread could be started.
    nonisolated(unsafe) var fallback: DispatchQueue?

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func push(_ job: Work) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        jobs.append(job)
        pthread_cond_signal(condition)
    }

    func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    func adoptCallingThread() {
        drainingThread = pthread_self()
        isCallingThreadOnly = true
    }

    func isDrainingThread() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return drainingThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    /// Runs jobs one at a time until the queue is closed and empty.
    func drain(isolatedTo serial: UnownedSerialExecutor, taskExecutor task: UnownedTaskExecutor) {
        pthread_mutex_lock(mutex)
        drainingThread = pthread_self()
        pthread_mutex_unlock(mutex)
        while let work = next() {
            switch work {
            case .job(let job): job.runSynchronously(isolatedTo: serial, taskExecutor: task)
            case .closure(let body): body()
            }
        }
    }

    private func next() -> Work? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while head == jobs.count {
            if closed { return nil }
            pthread_cond_wait(condition, mutex)
        }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        return job
    }
}

/// Work started from anywhere (under a lock, outside any task) that runs as child tasks of one task,
/// `run`, itself a child of the service's task group: each piece until it ends, is stopped, or `run`
/// is cancelled. What the loop's alarms and the hub's watchers share, so that the service owns them.
final class ChildTasks: Sendable {
    /// Ends one piece of work: its child task is cancelled, and `run` waits for it.
    struct Stop: Sendable {
        fileprivate let stopped: AsyncStream<Never>.Continuation

        func callAsFunction() { stopped.finish() }
    }

    private struct Piece: Sendable {
        let work: @Sendable () async -> Void
        /// Finishes when the piece is stopped; nil for one that only `run`'s end stops.
        let stopped: AsyncStream<Never>?
    }

    private let pieces: AsyncStream<Piece>
    private let newPiece: AsyncStream<Piece>.Continuation

    init() { (pieces, newPiece) = AsyncStream.makeStream() }

    /// Starts `work`, and gives what stops it.
    func start(_ work: @escaping @Sendable () async -> Void) -> Stop {
        let (stopped, stop) = AsyncStream<Never>.makeStream()
        newPiece.yield(Piece(work: work, stopped: stopped))
        return Stop(stopped: stop)
    }

    /// Starts `work`, which runs until it ends or `run` is cancelled.
    func startToTheEnd(_ work: @escaping @Sendable () async -> Void) {
        newPiece.yield(Piece(work: work, stopped: nil))
    }

    /// Runs every piece started, each a child task, until cancelled.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await piece in pieces {
                group.addTask {
                    await withTaskGroup(of: Void.self) { one in
                        one.addTask { await piece.work() }
                        if let stopped = piece.stopped { one.addTask { for await _ in stopped {} } }
                        await one.next()
                        one.cancelAll()
                    }
                }
            }
        }
    }
}

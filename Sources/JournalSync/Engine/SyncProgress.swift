import Synchronization

/// How far a sync in flight has come: each segment published, read or applied is a step. A watchdog
/// asks whether it still moves; a progress display asks how far along it is.
public final class SyncProgress: Sendable {
    private let counters = Mutex<(steps: UInt64, applied: Int, published: Int)>((0, 0, 0))
    /// Told of every step, with the records applied and published so far (a progress line).
    private let observer: (@Sendable (_ applied: Int, _ published: Int) -> Void)?

    public init(observer: (@Sendable (_ applied: Int, _ published: Int) -> Void)? = nil) {
        self.observer = observer
    }

    /// Steps taken so far.
    public var steps: UInt64 { counters.withLock { $0.steps } }
    /// Records applied and published so far.
    public var records: (applied: Int, published: Int) { counters.withLock { ($0.applied, $0.published) } }

    func step(applied: Int = 0, published: Int = 0) {
        let now = counters.withLock {
            $0.steps += 1
            $0.applied += applied
            $0.published += published
            return ($0.applied, $0.published)
        }
        observer?(now.0, now.1)
    }
}

import Synchronization

/// The daemon's stream of change events: every watcher, the ticker, signals and the watchdog `send`
/// into it, and the one sync loop iterates it with `for await`.
///
/// An `AsyncStream` rings the loop's doorbell; the reasons themselves are merged in a set under a
/// lock, so any number of sends while the loop is busy become one element holding all their reasons.
final class ChangeEvents: AsyncSequence, Sendable {
    typealias Element = ChangeReasons

    private let pending = Mutex<ChangeReasons>([])
    private let doorbell: AsyncStream<Void>
    private let ring: AsyncStream<Void>.Continuation

    init() {
        (doorbell, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Adds `reasons` to those the loop will take next; true when some of them were not waiting yet
    /// (a request that merges into one already waiting is not news, and is not logged again).
    @discardableResult
    func send(_ reasons: ChangeReasons) -> Bool {
        let added = pending.withLock { waiting in
            defer { waiting.formUnion(reasons) }
            return !waiting.isSuperset(of: reasons)
        }
        ring.yield()
        return added
    }

    /// Ends the stream: the loop finishes the element it is handling and stops.
    func finish() {
        ring.finish()
    }

    private func take() -> ChangeReasons {
        pending.withLock { reasons in
            defer { reasons = [] }
            return reasons
        }
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(doorbell: doorbell.makeAsyncIterator(), events: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        var doorbell: AsyncStream<Void>.Iterator
        let events: ChangeEvents

        mutating func next() async -> ChangeReasons? {
            while await doorbell.next() != nil {
                let reasons = events.take()
                if !reasons.isEmpty { return reasons }
            }
            return nil
        }
    }
}

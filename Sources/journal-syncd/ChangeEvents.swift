import JournalSync
import Synchronization

/// The daemon's stream of change events: every watcher, the ticker, signals and the watchdog `send`
/// into it, and the one sync loop iterates it with `for await`.
///
/// An `AsyncStream` rings the loop's doorbell; the reasons themselves are merged in a set under a
/// lock, so any number of sends while the loop is busy become one element holding all their reasons,
/// and the logs their rings named.
final class ChangeEvents: AsyncSequence, Sendable {
    typealias Element = Wake

    /// One look at the journal: why, and which logs the hub's rings named.
    struct Wake: Equatable {
        var reasons: ChangeReasons = []
        var rang = RangLogs()
    }

    private let pending = Mutex<Wake>(Wake())
    private let doorbell: AsyncStream<Void>
    private let ring: AsyncStream<Void>.Continuation

    init() {
        (doorbell, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Adds `reasons` to those the loop will take next; true when some of them were not waiting yet
    /// (a request that merges into one already waiting is not news, and is not logged again).
    /// A `.hub` sent without `rang` named no log: only a whole sync reads what it rang for.
    @discardableResult
    func send(_ reasons: ChangeReasons, rang: RangLogs = RangLogs()) -> Bool {
        var rang = rang
        if reasons.contains(.hub), rang.isEmpty { rang = .unnamedRing }
        let added = pending.withLock { waiting in
            defer {
                waiting.reasons.formUnion(reasons)
                waiting.rang.formUnion(rang)
            }
            return !waiting.reasons.isSuperset(of: reasons)
        }
        ring.yield()
        return added
    }

    /// Ends the stream: the loop finishes the element it is handling and stops.
    func finish() {
        ring.finish()
    }

    private func take() -> Wake {
        pending.withLock { wake in
            defer { wake = Wake() }
            return wake
        }
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(doorbell: doorbell.makeAsyncIterator(), events: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        var doorbell: AsyncStream<Void>.Iterator
        let events: ChangeEvents

        mutating func next() async -> Wake? {
            while await doorbell.next() != nil {
                let wake = events.take()
                if !wake.reasons.isEmpty { return wake }
            }
            return nil
        }
    }
}

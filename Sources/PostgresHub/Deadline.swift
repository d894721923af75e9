import NIOCore
import Synchronization

/// Closes a channel that did not finish its work in time: its connection's pending work then fails,
/// so a server that stops answering mid-way fails the call instead of hanging it. Scheduled on the
/// channel's event loop, so waiting costs no task or thread.
final class Deadline: Sendable {
    private let fired = Mutex(false)
    private let task = Mutex<Scheduled<Void>?>(nil)

    init(on channel: any Channel, seconds: Int) {
        let scheduled = channel.eventLoop.scheduleTask(in: .seconds(Int64(seconds))) { [self] in
            fired.withLock { $0 = true }
            channel.close(promise: nil)
        }
        task.withLock { $0 = scheduled }
    }

    /// True when the time ran out and the channel was closed.
    var expired: Bool { fired.withLock { $0 } }

    func cancel() { task.withLock { $0?.cancel() } }
}

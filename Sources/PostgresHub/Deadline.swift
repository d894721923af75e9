import NIOCore
import Synchronization

/// Closes a channel that did not finish its work in time: its connection's pending work then fails,
/// so a server that stops answering mid-way fails the call instead of hanging it. Scheduled on the
/// channel's event loop, so waiting costs no task or thread.
///
/// With `heard`, the time counts the server's silence, not the call's length: a call whose answer
/// keeps arriving (a first sync's listing of a million rows, read by a slow or busy machine) is not
/// taken for a server that stopped answering. Up to `ceiling` times the limit in all: a server that
/// sends a byte now and then (a hostile one) does not hold a sync forever.
final class Deadline: Sendable {
    /// How many limits of silence a call whose answer keeps coming may last in all.
    static let ceiling: Int64 = 10

    private struct State {
        var fired = false
        var cancelled = false
        var task: Scheduled<Void>?
    }

    private let state = Mutex(State())
    private let channel: any Channel
    private let limit: TimeAmount
    private let heard: LastHeard?
    private let end: NIODeadline

    init(on channel: any Channel, seconds: Int, heard: LastHeard? = nil) {
        self.channel = channel
        limit = .seconds(Int64(seconds))
        self.heard = heard
        let now = NIODeadline.now()
        end = now + .seconds(Int64(seconds) * (heard == nil ? 1 : Self.ceiling))
        arm(at: now + limit)
    }

    private func arm(at instant: NIODeadline) {
        let scheduled = channel.eventLoop.scheduleTask(deadline: instant) { [self] in
            // Heard from within the limit: wait for as long again after that, up to the end.
            if let last = heard?.last, last + limit > .now(), end > .now() {
                arm(at: min(last + limit, end))
                return
            }
            let expired = state.withLock { state in
                if !state.cancelled { state.fired = true }
                return state.fired
            }
            if expired { channel.close(promise: nil) }
        }
        let cancelled = state.withLock { state in
            state.task = scheduled
            return state.cancelled
        }
        if cancelled { scheduled.cancel() }
    }

    /// True when the time ran out and the channel was closed.
    var expired: Bool { state.withLock { $0.fired } }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}

/// When the channel last read anything from the server: the first handler of its pipeline, so TLS
/// records count as they arrive.
final class LastHeard: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let nanoseconds = Atomic<UInt64>(0)

    /// The last read, or nil before any.
    var last: NIODeadline? {
        let value = nanoseconds.load(ordering: .relaxed)
        return value == 0 ? nil : .uptimeNanoseconds(value)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        nanoseconds.store(NIODeadline.now().uptimeNanoseconds, ordering: .relaxed)
        context.fireChannelRead(data)
    }
}

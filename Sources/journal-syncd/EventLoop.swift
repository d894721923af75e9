import CLinux
import Synchronization

import Glibc

/// One thread that waits with epoll for the daemon's file descriptors (its timers, its inotify
/// instances, its signals) and runs each one's handler when it is ready.
///
/// libdispatch would do the same with sources, but on Linux it starts a manager thread at the
/// highest quality of service, whose attempt to raise its priority fails for every user service and
/// logs "Failed to set thread priority for worker thread: ... errno=13" at each start. This loop
/// never changes a priority, and an idle daemon's only thread in the kernel waits here.
///
/// Handlers run on the loop's thread and must be quick; a handler may run once more after its
/// descriptor is removed (an event already taken), so each reads without blocking and tolerates
/// finding nothing.
final class EventLoop: Sendable {
    static let shared = EventLoop()

    private let epoll: Int32
    /// Why there is no loop (epoll could not be made: no descriptor left), said by every `add`.
    private let unavailable: String?
    private let handlers = Mutex<[Int32: @Sendable () -> Void]>([:])

    private init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        // Without an epoll descriptor the loop would spin on epoll_wait's error: no thread then.
        guard epoll >= 0 else {
            unavailable = String(cString: strerror(errno))
            return
        }
        unavailable = nil
        let loop = Unmanaged.passUnretained(self).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { context in
            Unmanaged<EventLoop>.fromOpaque(context!).takeUnretainedValue().run()
            return nil
        }, loop)
        pthread_detach(thread)
    }

    /// Runs `handler` on the loop's thread each time `descriptor` is readable, until `remove`.
    func add(_ descriptor: Int32, handler: @escaping @Sendable () -> Void) throws(WatcherError) {
        if let unavailable { throw WatcherError(path: "anything (epoll)", reason: unavailable) }
        handlers.withLock { $0[descriptor] = handler }
        var event = epoll_event()
        event.events = journal_epollin()
        event.data.fd = descriptor
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
            handlers.withLock { $0[descriptor] = nil }
            throw WatcherError(path: "epoll", reason: String(cString: strerror(errno)))
        }
    }

    /// Stops watching `descriptor`; the caller closes it afterwards.
    func remove(_ descriptor: Int32) {
        epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, nil)
        handlers.withLock { $0[descriptor] = nil }
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 16)
        while true {
            // An error here can only be EINTR: the descriptor and the buffer are the loop's own.
            let count = epoll_wait(epoll, &events, Int32(events.count), -1)
            guard count > 0 else { continue }
            for index in 0..<Int(count) {
                let descriptor = events[index].data.fd
                handlers.withLock { $0[descriptor] }?()
            }
        }
    }
}

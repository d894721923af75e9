import JournalKit

import Glibc

/// One inotify instance, its events delivered as an `AsyncStream` by the daemon's event loop: no
/// thread of its own and no polling, so an idle daemon sleeps.
final class Inotify: Sendable {
    /// One event: the watch it came from, and the name of the file it is about in the watched folder.
    struct Event: Sendable {
        let watch: Int32
        let name: String
    }

    private let descriptor: Int32

    init() throws(WatcherError) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw WatcherError(path: "inotify", reason: String(cString: strerror(errno))) }
    }

    /// Watches `path` for `mask`, and returns the watch its events come from. Watching a path again
    /// updates its mask, and returns the same watch.
    func watch(_ path: String, mask: Int32) throws(WatcherError) -> Int32 {
        let watch = inotify_add_watch(descriptor, path, UInt32(bitPattern: mask))
        guard watch >= 0 else { throw WatcherError(path: path, reason: String(cString: strerror(errno))) }
        return watch
    }

    /// The events `kept`, batch by batch: a batch with none is not delivered, so the consumer is not
    /// woken for it. Ending the stream (or cancelling its consumer) closes the descriptor.
    func events(keeping kept: @escaping @Sendable (Event) -> Bool = { _ in true }) -> AsyncStream<[Event]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [Event].self, bufferingPolicy: .unbounded)
        let descriptor = self.descriptor
        do {
            try EventLoop.shared.add(descriptor) {
                let events = Inotify.drain(descriptor).filter(kept)
                if !events.isEmpty { continuation.yield(events) }
            }
        } catch {
            continuation.finish()
        }
        continuation.onTermination = { _ in
            EventLoop.shared.remove(descriptor)
            close(descriptor)
        }
        return stream
    }

    /// Reads every queued event.
    private static func drain(_ descriptor: Int32) -> [Event] {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return events }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.withUnsafeBytes { raw in raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let length = Int(event.len)
                let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)]
                events.append(Event(watch: event.wd, name: String(decoding: nameBytes.prefix(while: { $0 != 0 }), as: UTF8.self)))
                offset += header + length
            }
        }
    }
}

/// A folder that cannot be watched.
struct WatcherError: JournalFailure {
    let path: String
    let reason: String
    var kind: FailureKind { .failure }
    var description: String { "cannot watch \(path): \(reason)." }
}

@preconcurrency import Dispatch
import JournalKit
import Synchronization

import Glibc

/// One inotify instance, its events delivered as an `AsyncStream` from a dispatch read source: no
/// thread of its own and no polling, so an idle daemon sleeps.
final class Inotify: Sendable {
    /// One event: the name of the file it is about, in the watched folder.
    struct Event: Sendable {
        let name: String
    }

    private let descriptor: Int32
    private let queue = DispatchQueue(label: "journal-syncd.inotify", qos: .utility)

    init() throws(WatcherError) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw WatcherError(path: "inotify", reason: String(cString: strerror(errno))) }
    }

    /// Watches `path` for `mask`. Watching a path again updates its mask.
    func watch(_ path: String, mask: Int32) throws(WatcherError) {
        guard inotify_add_watch(descriptor, path, UInt32(bitPattern: mask)) >= 0 else {
            throw WatcherError(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// The events, batch by batch. Ending the stream (or cancelling its consumer) closes the descriptor.
    func events() -> AsyncStream<[Event]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [Event].self, bufferingPolicy: .unbounded)
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let descriptor = self.descriptor
        source.setEventHandler {
            let events = Inotify.drain(descriptor)
            if !events.isEmpty { continuation.yield(events) }
        }
        source.setCancelHandler { close(descriptor) }
        let cancel = SourceCancellation(source)
        continuation.onTermination = { _ in cancel.run() }
        source.resume()
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
                let length = buffer.withUnsafeBytes { raw in
                    Int(raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len)
                }
                let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)]
                let name = String(decoding: nameBytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                events.append(Event(name: name))
                offset += header + length
            }
        }
    }
}

/// Cancels a dispatch source from the stream's termination handler. A source may be cancelled from
/// any thread.
private struct SourceCancellation: @unchecked Sendable {
    let source: any DispatchSourceRead
    init(_ source: any DispatchSourceRead) { self.source = source }
    func run() { source.cancel() }
}

/// A folder that cannot be watched.
struct WatcherError: JournalFailure {
    let path: String
    let reason: String
    var kind: FailureKind { .failure }
    var description: String { "cannot watch \(path): \(reason)." }
}

import Foundation

/// A stand-in for systemd's notification socket: a datagram socket of the test's own, to read what a
/// daemon started with `NOTIFY_SOCKET` set to `path` says.
public final class NotifySocket {
    public let path: String
    private let descriptor: Int32

    public init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// The next message, or nil when none comes within `timeout`.
    public func receive(timeout: Duration) -> String? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, milliseconds) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Messages until one satisfies `done`, or nil when `timeout` passes first.
    public func receive(until done: (String) -> Bool, timeout: Duration) -> [String]? {
        let deadline = ContinuousClock.now + timeout
        var messages: [String] = []
        while ContinuousClock.now < deadline {
            guard let message = receive(timeout: deadline - ContinuousClock.now) else { break }
            messages.append(message)
            if done(message) { return messages }
        }
        return nil
    }
}

import Glibc

/// systemd's notification protocol, written directly: datagrams to the socket in `NOTIFY_SOCKET`
/// (a path, or an abstract name written with a leading "@"). Without `NOTIFY_SOCKET` it does nothing.
struct SystemdNotifier: Sendable {
    private let socketPath: String?

    init(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) {
        let path = environment("NOTIFY_SOCKET")
        socketPath = (path?.isEmpty ?? true) ? nil : path
    }

    func ready() { send("READY=1") }
    func watchdog() { send("WATCHDOG=1") }
    func stopping() { send("STOPPING=1") }

    /// A one-line status that `systemctl status` shows.
    func status(_ text: String) {
        send("STATUS=" + text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }

    /// How often systemd wants a watchdog ping: half its `WATCHDOG_USEC`, when the watchdog is on and
    /// meant for this process.
    static func watchdogInterval(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> Duration? {
        guard let text = environment("WATCHDOG_USEC"), let microseconds = Int64(text), microseconds > 0 else { return nil }
        if let pid = environment("WATCHDOG_PID"), !pid.isEmpty, Int32(pid) != getpid() { return nil }
        return .microseconds(microseconds / 2)
    }

    private func send(_ message: String) {
        guard let socketPath else { return }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        // Never waits: a socket nobody reads (its buffer full) must not stop the daemon, so a message
        // that does not fit is dropped.
        _ = message.withCString { text in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, text, strlen(text), Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, length)
                }
            }
        }
    }
}

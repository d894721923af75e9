import Glibc

/// Puts a Unix socket at `path`, as anyone who can write a shared folder can: bound at a short name
/// of its own (a socket's path holds at most 107 bytes), then renamed into place. It stays after its
/// descriptor is closed, as a socket whose program ended does. True when it is there.
public func plantSocket(at path: String) -> Bool {
    let short = "/tmp/s-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in short.utf8.enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0 else { return false }
    guard rename(short, path) == 0 else {
        unlink(short)
        return false
    }
    return true
}

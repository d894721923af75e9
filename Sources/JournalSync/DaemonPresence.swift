import JournalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether a sync daemon runs for a journal: the daemon holds an exclusive `flock` on a file next to
/// the database for as long as it lives, with its process id inside. One daemon per journal.
public final class DaemonPresence {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit {
        ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    public static func path(forDatabase databasePath: String) -> String { databasePath + ".syncd-lock" }

    /// Claims the journal for this process; nil when another daemon has it.
    public static func claim(databasePath: String) throws -> DaemonPresence? {
        let path = path(forDatabase: databasePath)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileSystem.failure(path) }
        // `journal sync status` takes the lock for an instant to test it; try for a moment before giving up.
        var attempts = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            attempts += 1
            guard (errno == EWOULDBLOCK || errno == EINTR) && attempts < 50 else {
                close(descriptor)
                return nil
            }
            usleep(20_000)
        }
        let pid = Array("\(getpid())\n".utf8)
        ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return DaemonPresence(descriptor: descriptor)
    }

    /// The process id of the daemon running for this journal, or nil when none runs.
    public static func runningDaemon(databasePath: String) -> Int32? {
        let path = path(forDatabase: databasePath)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return 0 }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingSpaces) ?? 0
    }
}

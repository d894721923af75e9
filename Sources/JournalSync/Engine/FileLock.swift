import JournalKit

import Glibc

/// An exclusive `flock` on a file next to the database, held for as long as this object lives. The
/// kernel drops it when the holder exits, however it exits. Two locks use it: one sync per journal at
/// a time, and one daemon per journal (whose lock file holds its process id).
public final class FileLock {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Waits for the sync lock: one sync per journal at a time.
    public static func sync(databasePath: String) throws -> FileLock {
        let path = JournalPaths.syncLock(forDatabase: databasePath)
        guard let lock = try take(path, wait: true) else { throw FileSystem.failure(path) }
        return lock
    }

    /// Claims the journal for this daemon process, writing its process id into the lock file; nil when
    /// another daemon has it. `journal sync status` takes the lock for an instant to test it, so a busy
    /// lock is tried for a moment before giving up.
    public static func daemon(databasePath: String) throws -> FileLock? {
        let path = JournalPaths.daemonLock(forDatabase: databasePath)
        for attempt in 0..<50 {
            if let lock = try take(path, wait: false) {
                let pid = Array("\(getpid())\n".utf8)
                ftruncate(lock.descriptor, 0)
                _ = pid.withUnsafeBytes { pwrite(lock.descriptor, $0.baseAddress, $0.count, 0) }
                return lock
            }
            if attempt < 49 { usleep(20_000) }
        }
        return nil
    }

    /// The process id of the daemon running for the journal at `databasePath`, or nil when none runs.
    public static func runningDaemon(databasePath: String) -> Int32? {
        let descriptor = open(JournalPaths.daemonLock(forDatabase: databasePath), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
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

    /// The lock on `path`, waiting for it or not; nil when not waiting and another process holds it.
    private static func take(_ path: String, wait: Bool) throws -> FileLock? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw FileSystem.failure(path) }
        while flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            if errno == EINTR { continue }
            let busy = errno == EWOULDBLOCK
            let error = FileSystem.failure(path)
            close(descriptor)
            if busy { return nil }
            throw error
        }
        return FileLock(descriptor: descriptor)
    }
}

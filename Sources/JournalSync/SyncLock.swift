import JournalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One sync per journal at a time: an exclusive `flock` on a file next to the database. The kernel
/// drops it when the holder exits, however it exits.
public final class SyncLock {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The lock file for the journal at `databasePath`.
    public static func path(forDatabase databasePath: String) -> String { databasePath + ".sync-lock" }

    /// Waits for the lock.
    public static func acquire(databasePath: String) throws -> SyncLock {
        guard let descriptor = try lock(path(forDatabase: databasePath), wait: true) else {
            throw FileSystem.failure(path(forDatabase: databasePath))
        }
        return SyncLock(descriptor: descriptor)
    }

    /// The lock if no other process holds it, else nil.
    public static func attempt(databasePath: String) throws -> SyncLock? {
        try lock(path(forDatabase: databasePath), wait: false).map(SyncLock.init(descriptor:))
    }

    private static func lock(_ path: String, wait: Bool) throws -> Int32? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileSystem.failure(path) }
        while flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            if errno == EINTR { continue }
            let busy = errno == EWOULDBLOCK
            let error = FileSystem.failure(path)
            close(descriptor)
            if busy { return nil }
            throw error
        }
        return descriptor
    }
}

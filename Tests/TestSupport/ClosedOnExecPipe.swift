import CLinux
import Foundation

/// A pipe whose two ends are closed on exec. Foundation's `Pipe` leaves both ends inheritable, so a
/// process another test starts while one is open (a PostgreSQL server or pgbouncer that lives for the
/// whole run) keeps a copy of its write end, and whoever reads the pipe to its end waits for that
/// process to end: the test run hung so, with every command's output read and none finished. A process
/// given an end as its standard input or output gets a copy (dup2 clears close-on-exec on the copy);
/// the parent closes its own copy of that end once the process has started.
public final class ClosedOnExecPipe: @unchecked Sendable {
    public let reading: FileHandle
    public let writing: FileHandle

    public init() throws {
        var ends: [Int32] = [-1, -1]
        guard journal_pipe(&ends, O_CLOEXEC) == 0 else { throw FixtureError("pipe2 failed: errno \(errno)") }
        reading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        writing = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }

    /// Writes `data` to the pipe, unless its reader has gone (the process ended early: what the test
    /// checks next says so). FileHandle's `write(_:)` traps on that, ending the whole test run.
    public func send(_ data: Data) {
        try? writing.write(contentsOf: data)
    }
}

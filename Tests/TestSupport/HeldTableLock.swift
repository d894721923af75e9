import Foundation

/// A table of a test server's database, locked against every other session (`LOCK TABLE ... IN ACCESS
/// EXCLUSIVE MODE` in a transaction of psql's, as a migration or a person's long transaction would
/// hold it) until `release()`: a statement that reads it waits, without an answer, for as long as the
/// lock is held.
public final class HeldTableLock: @unchecked Sendable {
    private let holder: ChildProcess
    private let commands: ClosedOnExecPipe

    /// Returns once the lock is held; `table` is a qualified name.
    public init(_ table: String, database: String, on server: PostgresServer) throws {
        commands = try ClosedOnExecPipe()
        let answers = try ClosedOnExecPipe()
        holder = try ChildProcess(
            "/usr/bin/psql",
            ["-h", server.folder, "-p", String(server.port), "-U", "postgres", "-d", database, "-At", "-q", "-v", "ON_ERROR_STOP=1"],
            environment: ["PGPASSWORD": "fixture-superuser", "PGCONNECT_TIMEOUT": "5", "PATH": "/usr/bin:/bin"],
            standardInput: commands.reading, standardOutput: answers.writing)
        for end in [commands.reading, answers.writing] { try end.close() }
        commands.send(Data("BEGIN;\nLOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE;\nSELECT 'holding';\n".utf8))
        let answer = String(decoding: answers.reading.availableData, as: UTF8.self)
        guard answer.hasPrefix("holding") else {
            ProcessRunner.stop(holder)
            throw FixtureError("psql could not lock \(table) in \(database)")
        }
    }

    /// Lets go of the lock, and waits for the holder to end. Called from one thread at a time, with the
    /// server answering (not frozen).
    public func release() {
        guard holder.isRunning else { return }
        commands.send(Data("ROLLBACK;\n\\q\n".utf8))
        holder.waitUntilExit()
    }

    deinit { ProcessRunner.stop(holder) }
}

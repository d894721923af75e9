import Foundation
import Testing
import TestSupport

/// `journal backup`: the way to copy the journal, where copying its file misses what the WAL holds.
@Suite(.onTestThreads) struct BackupTests {
    func count(_ journal: JournalCLI, db: String? = nil) throws -> String {
        let arguments = (db.map { ["--db", $0] } ?? []) + ["sql", "select count(*) from history", "--format", "csv"]
        return try journal.run(arguments).stdout.split(separator: "\r\n").last.map(String.init) ?? ""
    }

    @Test func aBackupHoldsWhatTheWALHoldsInOneVerifiedPrivateFile() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            for minute in 1...5 { try journal.run("add", "espresso", "--at", "\(minute) min ago") }
            // What `cp` of the file alone gets: the recent drinks are still in the -wal.
            try FileManager.default.copyItem(atPath: journal.databasePath, toPath: home + "/copied.db")
            #expect(try count(journal, db: home + "/copied.db") != "5")

            let result = try journal.run("backup", home + "/backup.db")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Backed up 5 drinks") && result.stdout.contains("verified"))
            #expect(try permissions(home + "/backup.db") == 0o600)
            #expect(!FileManager.default.fileExists(atPath: home + "/backup.db-wal"))
            #expect(try count(journal, db: home + "/backup.db") == "5")
            // It replaces an older backup whole.
            try journal.run("add", "tea")
            #expect(try journal.run("backup", home + "/backup.db").status == 0)
            #expect(try count(journal, db: home + "/backup.db") == "6")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: home).filter { $0.hasPrefix(".backup.db") }
            #expect(leftovers.isEmpty)
            #expect(try journal.run("backup", journal.databasePath).status == 64)
            #expect(try journal.run("backup", home + "/no/such/folder/b.db").status == 1)
        }
    }

    /// Restored as the README says: the journal's own -wal and -shm go with it, else SQLite would
    /// replay the newer log onto the older backup.
    @Test func aBackupPutBackInPlaceIsTheJournalAsItWas() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            for minute in 1...3 { try journal.run("add", "espresso", "--at", "\(minute) min ago") }
            #expect(try journal.run("backup", home + "/backup.db").status == 0)
            for minute in 4...6 { try journal.run("add", "black-tea", "--at", "\(minute) min ago") }
            let db = journal.databasePath
            #expect(FileManager.default.fileExists(atPath: db + "-wal"), "the later drinks should still be in the WAL")
            for file in [db, db + "-wal", db + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
            try FileManager.default.copyItem(atPath: home + "/backup.db", toPath: db)
            #expect(try count(journal) == "3")
            let kinds = try journal.run("sql", "select distinct drink from history", "--format", "csv").stdout
            #expect(kinds == "drink\r\nespresso\r\n", "\(kinds)")
            let check = try journal.run("sql", "pragma integrity_check", "--format", "csv").stdout
            #expect(check.contains("ok"), "\(check)")
            #expect(try journal.run("add", "tea").status == 0)
            #expect(try count(journal) == "4")
        }
    }

    @Test func aBackupWhileOthersWriteIsConsistent() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run(["import", "-"], stdin: SyncCrashTests.export(from: 0, count: 3000))
            let writer = try ProcessRunner.start(
                "/bin/sh", ["-c", "for i in $(seq 1 40); do \"$0\" add espresso >/dev/null; done", JournalCLI.binary],
                environment: journal.environment)
            defer { ProcessRunner.stop(writer) }
            for round in 0..<3 {
                let path = home + "/backup-\(round).db"
                let result = try journal.run("backup", path)
                #expect(result.status == 0, "\(result.stderr)")
                let check = try journal.run("--db", path, "sql", "pragma integrity_check", "--format", "csv").stdout
                #expect(check.contains("ok"))
                #expect((Int(try count(journal, db: path)) ?? 0) >= 3000)
            }
            writer.waitUntilExit()
            try journal.run("backup", home + "/final.db")
            #expect(try count(journal, db: home + "/final.db") == "3040")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// Where `journal backup` will not write: over the journal or a file it keeps beside it, however the
/// path is spelled, or over anything that is not a regular file. And what it leaves behind: nothing.
@Suite(.onTestThreads) struct BackupTargetTests {
    /// With the daemon running, SQLite wrote a fresh WAL over a "backup" written to the -wal and the
    /// journal lost every drink.
    @Test func noSpellingOfTheJournalOrOfItsFilesIsATarget() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            #expect(try journal.run("sync", "init", "--folder", home + "/hub").status == 0)
            for minute in 1...6 { try journal.run("add", "espresso", "--at", "\(minute) min ago") }
            let config = home + "/.config/journal"
            try "half_life_hours = 5\n".write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
            let (daemon, _) = try startDaemon(journal, socketPath: home + "/notify")
            defer { ProcessRunner.stop(daemon) }
            let db = journal.databasePath
            let folder = (db as NSString).deletingLastPathComponent
            #expect(link(db, home + "/hard-link.db") == 0)
            #expect(symlink(db, home + "/symbolic-link.db") == 0)
            #expect(symlink(folder, home + "/folder-link") == 0)
            let key = fileBytes(config + "/sync.key")
            // A hub's login, whatever its kind, and a hard link to it elsewhere.
            try "machine h login u password p\n".write(toFile: config + "/webdav.netrc", atomically: true, encoding: .utf8)
            #expect(link(config + "/webdav.netrc", home + "/netrc-link") == 0)
            let before = try journal.fingerprint()
            let targets = [
                db, folder + "/./journal.db", folder + "//journal.db", folder + "/../journal/journal.db",
                db + "-wal", db + "-shm", db + "-journal", db + ".sync-lock", db + ".syncd-lock",
                config + "/sync.key", config + "/config.toml", config + "/postgres.pgpass", config + "/any-hub.login",
                config + "/webdav.netrc", home + "/netrc-link",
                home + "/hard-link.db", home + "/symbolic-link.db", home + "/folder-link/journal.db-wal",
            ]
            for target in targets {
                let refused = try journal.run("backup", target)
                #expect(refused.status == 64, "\(target): \(refused.stdout)\(refused.stderr)")
                #expect(refused.stderr.hasPrefix("journal: \(target) is "), "\(refused.stderr)")
                #expect(!refused.stderr.contains("Error:") && !refused.stderr.contains("Usage:"), "\(refused.stderr)")
            }
            #expect(try journal.fingerprint() == before)
            #expect(fileBytes(config + "/sync.key") == key)
            #expect(try journal.run("add", "black-tea").status == 0)
            #expect(try journal.run("sql", "select count(*) from history", "--format", "csv").stdout == "count(*)\r\n7\r\n")
            #expect(try journal.run("sync").status == 0)
        }
    }

    @Test func devicesFIFOsSocketsAndFoldersAreRefusedAndLeftAsTheyAre() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso")
            #expect(mknod(home + "/full", S_IFCHR | 0o644, dev_t((1 << 8) | 7)) == 0, "mknod needs CAP_MKNOD, which root has")
            #expect(mkfifo(home + "/fifo", 0o644) == 0)
            try bindSocket(at: home + "/socket")
            try FileManager.default.createDirectory(atPath: home + "/folder", withIntermediateDirectories: false)
            for (name, type) in [("full", "character device"), ("fifo", "FIFO"), ("socket", "socket"), ("folder", "folder")] {
                let refused = try journal.run("backup", home + "/" + name)
                #expect(refused.status == 64, "\(name): \(refused.stdout)\(refused.stderr)")
                #expect(refused.stderr.contains("\(home)/\(name) is a \(type), not a file"), "\(refused.stderr)")
                var info = stat()
                #expect(lstat(home + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG, "\(name) was replaced")
            }
        }
    }

    /// A backup killed midway left its temporary and SQLite's rollback journal beside it, and no later
    /// backup took them away; a temporary another backup still writes is not a leftover.
    @Test func leftoversOfKilledBackupsGoAndOnesInUseStay() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso")
            let backups = home + "/backups"
            try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: false)
            let leftovers = [
                ".journal-tmp-0badf00d", ".journal-tmp-0badf00d-journal", ".journal-tmp-1234abcd-journal",
                // Named as journals before this one named them.
                ".week.db.tmp-5e6f7a8b", ".week.db.tmp-5e6f7a8b-journal",
            ]
            for name in leftovers { try Data(count: 4096).write(to: URL(fileURLWithPath: backups + "/" + name)) }
            let others = [".journal-tmp-notours", ".week.db.tmp-keep", "notes.txt"]
            for name in others { try Data("mine".utf8).write(to: URL(fileURLWithPath: backups + "/" + name)) }
            // A backup at work: its writer holds the temporary's lock (here, this process).
            let inUse = open(backups + "/.journal-tmp-00c0ffee", O_RDWR | O_CREAT, 0o600)
            defer { close(inUse) }
            #expect(inUse >= 0 && flock(inUse, LOCK_EX) == 0)

            #expect(try journal.run("backup", backups + "/week.db").status == 0)
            let names = Set(try FileManager.default.contentsOfDirectory(atPath: backups))
            #expect(names == Set(others + ["week.db", ".journal-tmp-00c0ffee"]), "\(names.sorted())")
            // A name as long as a file name can be still works: the temporary's is short.
            let long = String(repeating: "b", count: 250) + ".db"
            let result = try journal.run("backup", backups + "/" + long)
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    /// Backups killed with SIGKILL while they write (seen by their temporary appearing) leave their
    /// temporaries; the next backup removes every one, and the journal is as it was.
    @Test func backupsKilledMidWayLeaveNothingTheNextOneKeeps() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            #expect(try journal.run(["import", "-"], stdin: SyncCrashTests.export(from: 0, count: 100_000)).status == 0)
            let before = try journal.fingerprint()
            let backups = home + "/backups"
            try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: false)
            func temporaries() -> [String] {
                ((try? FileManager.default.contentsOfDirectory(atPath: backups)) ?? []).filter { $0.hasPrefix(".journal-tmp-") }
            }
            var killed = 0
            for _ in 0..<20 where killed < 3 {
                let backup = try ProcessRunner.start(JournalCLI.binary, ["backup", backups + "/journal.db"], environment: journal.environment)
                let present = Set(temporaries())
                while backup.isRunning && Set(temporaries()).subtracting(present).isEmpty { usleep(200) }
                if backup.isRunning {
                    kill(backup.processIdentifier, SIGKILL)
                    killed += 1
                }
                backup.waitUntilExit()
                try? FileManager.default.removeItem(atPath: backups + "/journal.db")
            }
            #expect(killed == 3, "no backup was caught writing")
            #expect(!temporaries().isEmpty, "the killed backups left nothing to clean")
            let result = try journal.run("backup", backups + "/journal.db")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(temporaries().isEmpty, "\(temporaries())")
            #expect(try journal.fingerprint() == before)
        }
    }

    @Test func aFolderThatCannotBeWrittenIsASetupToFixNamedAsTheFolder() async throws {
        try await withTemporaryDirectory { folder in
            #expect(chmod(folder, 0o755) == 0)
            let journalBinary = try ProcessRunner.executablesForOtherUsers(in: folder) + "/journal"
            let home = folder + "/home"
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
            #expect(chown(home, 65534, 65534) == 0)
            let closed = folder + "/closed"
            try FileManager.default.createDirectory(atPath: closed, withIntermediateDirectories: false)
            #expect(chmod(closed, 0o755) == 0)
            func journal(_ arguments: String...) throws -> ProcessResult {
                try ProcessRunner.run(
                    "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", journalBinary] + arguments,
                    environment: ["HOME": home, "LC_ALL": "C.UTF-8"])
            }
            let added = try journal("add", "espresso")
            #expect(added.status == 0, "\(added.stderr)")
            let refused = try journal("backup", closed + "/backup.db")
            #expect(refused.status == 78, "\(refused.stderr)")
            #expect(refused.stderr.hasPrefix("journal: cannot back up into \(closed): permission denied"), "\(refused.stderr)")
            #expect(!refused.stderr.contains(".tmp") && !refused.stderr.contains("journal-tmp"), "\(refused.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: closed).isEmpty)
        }
    }

    private func bindSocket(at path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
    }
}

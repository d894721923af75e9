import Foundation
import Testing
import TestSupport

/// Sync's secrets and state under failure: a join that fails changes nothing, a key others can read
/// is refused, a tampered hub.json is bad data, and the daemon lets go of a journal that is gone.
@Suite(.onTestThreads, .timeLimit(.minutes(3))) struct SyncHardeningTests {
    /// A machine joined to a folder hub, where its key is kept, the key, and its journal's fingerprint.
    func joinedMachine(in folder: String) throws -> (JournalCLI, keyPath: String, key: String, fingerprint: String) {
        let a = try JoinedMachines(in: folder).machines[0]
        let keyPath = a.home + "/.config/journal/sync.key"
        return (a, keyPath, try String(contentsOfFile: keyPath, encoding: .utf8), try a.fingerprint())
    }

    @Test func aFailedJoinLeavesTheKeyTheJournalAndTheFolderAsTheyWere() async throws {
        try await withTemporaryDirectory { folder in
            let (a, keyPath, key, before) = try joinedMachine(in: folder)
            // The join's own write fails (a trigger stands for a busy or failing disk).
            #expect(try ProcessRunner.run("/usr/bin/sqlite3", [a.databasePath, "create trigger refuse before update on sync_hub begin select raise(abort, 'disk trouble'); end; create trigger refuse2 before insert on sync_hub begin select raise(abort, 'disk trouble'); end;"], environment: [:]).status == 0)
            let other = try JoinedMachines.makeKey(in: folder + "/other")
            let otherHub = folder + "/other/hub"
            let failed = try a.run(["sync", "init", "--folder", otherHub, "--key-file", "-"], stdin: try other.run("sync", "key").stdout)
            // The disk trouble as the journal words a failed write: exit 1 (worth retrying), not a
            // setup or data problem, and not some other failure on the way.
            let trouble = "journal: the journal could not be read or written: disk trouble. Nothing was changed."
            #expect(failed.status == 1 && failed.stderr.hasPrefix(trouble), "\(failed.status): \(failed.stderr)")
            #expect(try String(contentsOfFile: keyPath, encoding: .utf8) == key)
            #expect(try a.fingerprint() == before)
            // A new hub that the failed join would have made is not left behind.
            let fresh = folder + "/fresh-hub"
            let made = try a.run("sync", "init", "--folder", fresh)
            #expect(made.status == 1 && made.stderr.hasPrefix(trouble), "\(made.status): \(made.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fresh + "/journal-hub-v1"))
            #expect(try String(contentsOfFile: keyPath, encoding: .utf8) == key)
        }
    }

    /// The case reported: another program holds the journal's write lock (`sqlite3` in `BEGIN
    /// EXCLUSIVE`) while `sync init` joins another hub. The join waits, fails, and leaves the key.
    @Test func aJoinThatFindsTheJournalBusyKeepsTheKeyItHad() async throws {
        try await withTemporaryDirectory { folder in
            let (a, keyPath, key, before) = try joinedMachine(in: folder)
            let other = try JoinedMachines.makeKey(in: folder + "/other")
            let otherKey = try other.run("sync", "key").stdout
            let lock = try HeldWriteLock(database: a.databasePath)
            let failed = try a.run(["sync", "init", "--folder", folder + "/other/hub", "--key-file", "-"], stdin: otherKey)
            // The trouble the test made, said as such: not a hub, a key or a disk.
            #expect(failed.status == 1 && failed.stderr.hasPrefix("journal: the journal is busy"), "\(failed.stderr)")
            #expect(try String(contentsOfFile: keyPath, encoding: .utf8) == key)
            lock.release()
            #expect(try a.fingerprint() == before)
            #expect(try a.run("sync").status == 0)
        }
    }

    /// A sync lock that cannot be taken (its path is a folder) is said in the journal's own words.
    @Test func aSyncLockThatCannotBeTakenIsSaidInTheJournalsWords() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let a = joined.machines[0]
            let lock = a.databasePath + ".sync-lock"
            try? FileManager.default.removeItem(atPath: lock)
            try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
            let result = try a.run("sync")
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("journal: ") && result.stderr.contains(".sync-lock"), "\(result.stderr)")
            #expect(!result.stderr.contains("Error:"), "\(result.stderr)")
        }
    }

    @Test func aKeyFileWhereTheKeyCannotBeSavedChangesNothing() async throws {
        try await withTemporaryDirectory { folder in
            let journal = JournalCLI(home: folder + "/a")
            try journal.run("add", "espresso")
            let before = try journal.fingerprint()
            // The config folder is a file: the key cannot be written there.
            try FileManager.default.createDirectory(atPath: folder + "/a/.config", withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: folder + "/a/.config/journal"))
            let result = try journal.run("sync", "init", "--folder", folder + "/hub")
            #expect(result.status == 1 && result.stderr.hasPrefix("journal: "), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/hub/journal-hub-v1"))
            #expect(try journal.fingerprint() == before)
        }
    }

    @Test func aKeyOthersCanReadOrAnotherUserOwnsIsRefusedWithTheFix() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let a = joined.machines[0]
            let keyPath = a.home + "/.config/journal/sync.key"
            #expect(chmod(keyPath, 0o644) == 0)
            let readable = try a.run("sync")
            #expect(readable.status == 78 && readable.stderr.contains("chmod 600"), "\(readable.stderr)")
            #expect(chmod(keyPath, 0o600) == 0)
            #expect(chown(keyPath, 65534, 65534) == 0)
            let foreign = try a.run("sync")
            #expect(foreign.status == 78 && foreign.stderr.contains("belongs to another user"), "\(foreign.stderr)")
            #expect(chown(keyPath, getuid(), getgid()) == 0)
            #expect(try a.run("sync").status == 0)
        }
    }

    /// The daemon given a key others can read: retrying cannot help, so it says why and exits 78,
    /// which its unit does not restart (RestartPreventExitStatus), instead of retrying forever.
    @Test func theDaemonExitsAsASetupFailureOnAKeyOthersCanRead() async throws {
        try await withTemporaryDirectory { folder in
            let a = try JoinedMachines(in: folder, now: nil).machines[0]
            let keyPath = a.home + "/.config/journal/sync.key"
            #expect(chmod(keyPath, 0o644) == 0)
            let log = folder + "/daemon.log"
            let daemon = try ProcessRunner.start(ProcessRunner.executable("journal-syncd"), ["--interval", "10s"], environment: a.environment, stderrPath: log)
            defer { ProcessRunner.stop(daemon) }
            let ended = try await eventually(.seconds(60)) { !daemon.isRunning }
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(ended, "still running after a minute: \(said)")
            guard ended else { return }
            #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 78, "\(daemon.terminationStatus): \(said)")
            #expect(said.contains("chmod 600 '\(keyPath)'"), "\(said)")
        }
    }

    @Test func aTamperedKeyCheckIsBadDataNotUsage() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let descriptor = joined.hub + "/journal-hub-v1/hub.json"
            let text = try String(contentsOfFile: descriptor, encoding: .utf8)
            let tampered = text.replacingOccurrences(of: #""key_check" : ""#, with: #""key_check" : "00"#)
            #expect(tampered != text)
            try tampered.write(toFile: descriptor, atomically: true, encoding: .utf8)
            let result = try joined.machines[1].run("sync")
            #expect(result.status == 65, "\(result.stderr)")
        }
    }

    @Test func theDaemonExitsWhenItsJournalIsReplacedAndWillNotLoopOnAReadOnlyDisk() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, now: nil)
            let a = joined.machines[0]
            let socket = try NotifySocket(path: folder + "/notify.sock")
            var environment = a.environment
            environment["NOTIFY_SOCKET"] = socket.path
            let daemon = try ProcessRunner.start(ProcessRunner.executable("journal-syncd"), [], environment: environment)
            defer { ProcessRunner.stop(daemon) }
            #expect(socket.receive(until: { $0 == "READY=1" }, timeout: .seconds(15)) != nil)
            // Replaced under it (a restore, or rm and a new journal): it lets systemd start it afresh.
            try FileManager.default.removeItem(atPath: a.databasePath)
            try a.run("add", "espresso")
            let deadline = ContinuousClock.now + .seconds(10)
            while daemon.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(!daemon.isRunning)
            #expect(daemon.terminationStatus == 1)

            // On a read-only disk, retrying cannot help: the status says so, and the unit does not restart.
            let mount = folder + "/ro"
            try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
            #expect(try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", mount], environment: [:]).status == 0)
            defer { _ = try? ProcessRunner.run("/bin/umount", [mount], environment: [:]) }
            var onDisk = a
            onDisk.environment["JOURNAL_DB"] = mount + "/journal.db"
            try onDisk.run("add", "espresso")
            #expect(try ProcessRunner.run("/bin/mount", ["-o", "remount,ro", mount], environment: [:]).status == 0)
            let readOnly = try ProcessRunner.run(ProcessRunner.executable("journal-syncd"), ["--once"], environment: onDisk.environment)
            #expect(readOnly.status == 78, "\(readOnly.stderr)")
            #expect(readOnly.stderr.contains("read-only file system"))
            let add = try onDisk.run("add", "espresso")
            #expect(add.status == 78 && add.stderr.contains("read-only file system"), "\(add.stderr)")
        }
    }
}

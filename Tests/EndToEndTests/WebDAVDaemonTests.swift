import Foundation
import Testing
import TestSupport

/// Daemons on a WebDAV hub, as a person runs them: two machines through each server, a server that
/// stops and comes back, a disk that fills, a folder another client locked. Each server that a test
/// stops or fills is its own.
@Suite(.onTestThreads, .timeLimit(.minutes(5))) struct WebDAVDaemonTests {
    func log(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// What B's daemon finds by polling (one PROPFIND of the hub's top every 5 s while anything
    /// changed in the last 10 minutes): A's drink, with an hour between safety-net syncs.
    @Test(arguments: [HubFlavor.apache, .nginx])
    func twoMachinesSyncThroughTheServerWithTheirDaemonsRunning(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, now: nil, on: flavor)
            let (a, b) = (joined.machines[0], joined.machines[1])
            let (daemonA, _) = try startDaemon(a, ["--interval", "1h"], socketPath: folder + "/a.sock", stderrPath: folder + "/a.log")
            defer { ProcessRunner.stop(daemonA, signal: SIGTERM) }
            let (daemonB, _) = try startDaemon(b, ["--interval", "1h"], socketPath: folder + "/b.sock", stderrPath: folder + "/b.log")
            defer { ProcessRunner.stop(daemonB, signal: SIGTERM) }
            #expect(try await eventually(.seconds(30)) { log(folder + "/b.log").contains("looking at the hub") })
            try a.run("add", "espresso", "--note", "polled across")
            #expect(try await eventually(.seconds(30)) { try notes(b).contains("polled across") }, "\(log(folder + "/b.log"))")
            try b.run("add", "tea", "--note", "and back")
            #expect(try await eventually(.seconds(30)) { try notes(a).contains("and back") }, "\(log(folder + "/a.log"))")
            // B may have had a's drink from the sync its daemon starts with, before a look found it: the
            // look that finds it is recorded with the sync it rings for.
            #expect(
                try await eventually(.seconds(30)) {
                    let status = try b.run("sync", "status").stdout
                    return status.contains("Seen         ") && !status.contains("Seen         never")
                }, "\(log(folder + "/b.log"))")
            let status = try b.run("sync", "status").stdout
            #expect(status.contains("Polled       every 5 s within 10 min of a change, every 40 s when quiet"), "\(status)")
            #expect(!status.contains("Notified"), "\(status)")
        }
    }

    /// A server that stops: a sync says the hub cannot be reached and loses nothing; the daemon
    /// publishes once the server is back, and the other machine gets everything.
    @Test func aServerThatStopsAndComesBackLosesNothing() async throws {
        try await withTemporaryDirectory { folder in
            let server = try WebDAVServer(.nginx)
            defer { try? server.stop() }
            let hub = try server.newFolder()
            let a = JournalCLI(home: folder + "/a", now: nil), b = JournalCLI(home: folder + "/b", now: nil)
            #expect(try a.run("sync", "init", "--hub", hub).status == 0)
            #expect(try b.run(["sync", "init", "--hub", hub, "--key-file", "-"], stdin: try a.run("sync", "key").stdout).status == 0)
            try server.stop()
            try a.run("add", "espresso", "--note", "while the server was down")
            let refused = try a.run("sync")
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("cannot reach the hub dav://alice@127.0.0.1:\(server.port)/"), "\(refused.stderr)")
            #expect(refused.stderr.contains("Nothing was lost"), "\(refused.stderr)")
            #expect(!refused.stderr.contains(WebDAVServer.password))
            let (daemon, _) = try startDaemon(a, ["--interval", "1h"], socketPath: folder + "/a.sock", stderrPath: folder + "/a.log")
            defer { ProcessRunner.stop(daemon, signal: SIGTERM) }
            try server.start()
            #expect(try await eventually(.seconds(60)) { try b.run("sync").status == 0 && notes(b).contains("while the server was down") },
                    "\(log(folder + "/a.log"))")
        }
    }

    /// A disk that fills (Apache answers 507 Insufficient Storage): the sync fails saying so, the
    /// journal keeps its change, and once there is room again it is published whole.
    @Test func aFullDiskOnTheServerLosesNothing() async throws {
        try await withTemporaryDirectory { folder in
            let disk = folder + "/disk"
            try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
            let mounted = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", disk], environment: [:])
            try #require(mounted.status == 0, "\(mounted.stderr)")
            defer { _ = try? ProcessRunner.run("/bin/umount", ["-l", disk], environment: [:]) }
            let server = try WebDAVServer(.apache, root: disk)
            defer { try? server.stop() }
            let hub = try server.newFolder()
            let a = JournalCLI(home: folder + "/a", now: nil), b = JournalCLI(home: folder + "/b", now: nil)
            #expect(try a.run("sync", "init", "--hub", hub).status == 0)
            #expect(try b.run(["sync", "init", "--hub", hub, "--key-file", "-"], stdin: try a.run("sync", "key").stdout).status == 0)
            // What is left of the disk, taken by a file of someone else's.
            _ = try ProcessRunner.run("/bin/sh", ["-c", "dd if=/dev/zero of='\(disk)/filler' bs=4k 2>/dev/null; sync"], environment: [:])
            try a.run("add", "espresso", "--note", "on a full disk")
            let refused = try a.run("sync")
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("no room left (507 Insufficient Storage)"), "\(refused.stderr)")
            #expect(refused.stderr.contains("Nothing was lost"), "\(refused.stderr)")
            try FileManager.default.removeItem(atPath: disk + "/filler")
            let synced = try a.run("sync")
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(try b.run("sync").status == 0)
            #expect(try notes(b).contains("on a full disk"))
        }
    }

    /// A folder another client locked (LOCK, as a desktop client may): writes there are refused with
    /// 423, said as the hub being out of reach for now; once unlocked, the sync goes through.
    @Test func aLockedFolderHoldsTheSyncUntilItIsUnlocked() async throws {
        try await withTemporaryDirectory { folder in
            let server = WebDAVServer.shared(.apache)
            let hub = try server.newFolder()
            let a = JournalCLI(home: folder + "/a", now: nil), b = JournalCLI(home: folder + "/b", now: nil)
            #expect(try a.run("sync", "init", "--hub", hub).status == 0)
            #expect(try b.run(["sync", "init", "--hub", hub, "--key-file", "-"], stdin: try a.run("sync", "key").stdout).status == 0)
            let path = String(hub.split(separator: "/")[2].split(separator: "?")[0]) + "/journal-hub-v1/"
            let lock = try server.curl([
                "-X", "LOCK", "-H", "Depth: infinity", "-H", "Timeout: Second-600", "-H", "Content-Type: application/xml", "--data",
                #"<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>"#,
                "-D", "-", server.httpURL(path),
            ])
            try #require(lock.status == 200, "\(lock.body)")
            let header = lock.body.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("lock-token:") }
            let token = try #require(header?.dropFirst("lock-token:".count).trimmingCharacters(in: .whitespaces), "\(lock.body)")
            try a.run("add", "espresso", "--note", "behind a lock")
            let refused = try a.run("sync")
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("(423 Locked)"), "\(refused.stderr)")
            #expect(refused.stderr.contains("Nothing was lost"), "\(refused.stderr)")
            let unlocked = try server.curl(["-X", "UNLOCK", "-H", "Lock-Token: \(token)", server.httpURL(path)])
            #expect(unlocked.status == 204, "\(unlocked.body)")
            #expect(try a.run("sync").status == 0)
            #expect(try b.run("sync").status == 0)
            #expect(try notes(b).contains("behind a lock"))
        }
    }

    /// No `.netrc` line for the server: `sync init` on a terminal asks for the password without
    /// echoing it, keeps it 0600 beside the sync key once the server took it, and later syncs (and the
    /// daemon) use it; a wrong one is refused with nothing written.
    @Test func aPasswordAskedForOnATerminalIsKeptForLaterSyncs() async throws {
        try await withTemporaryDirectory { folder in
            let server = WebDAVServer.shared(.nginx)
            let hub = try server.newFolder()
            var machine = JournalCLI(home: folder + "/a", now: nil)
            machine.environment["NETRC"] = folder + "/no-netrc"
            let refused = try machine.run("sync", "init", "--hub", hub)
            #expect(refused.status == 78, "\(refused.stderr)")
            #expect(refused.stderr.contains("asks for a login, and none was found"), "\(refused.stderr)")
            var environment = machine.environment
            environment["TERM"] = "dumb"
            let wrong = try TerminalSession([JournalCLI.binary, "sync", "init", "--hub", hub], environment: environment, screenPath: folder + "/wrong.txt")
            #expect(try await wrong.waitUntilShown("Password for alice on 127.0.0.1:\(server.port): "), "\(wrong.shown)")
            wrong.type("not the password")
            #expect(try await wrong.exitStatus() == 78, "\(wrong.shown)")
            #expect(wrong.shown.contains("refused the login alice"), "\(wrong.shown)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/a/.config/journal/webdav.netrc"))
            let terminal = try TerminalSession([JournalCLI.binary, "sync", "init", "--hub", hub], environment: environment, screenPath: folder + "/terminal.txt")
            #expect(try await terminal.waitUntilShown("Password for alice on 127.0.0.1:\(server.port): "), "\(terminal.shown)")
            terminal.type(WebDAVServer.password)
            #expect(try await terminal.exitStatus() == 0, "\(terminal.shown)")
            #expect(!terminal.shown.contains(WebDAVServer.password), "the password was echoed: \(terminal.shown)")
            let kept = folder + "/a/.config/journal/webdav.netrc"
            let attributes = try FileManager.default.attributesOfItem(atPath: kept)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            try machine.run("add", "espresso")
            let later = try machine.run("sync")
            #expect(later.status == 0, "\(later.stderr)")
        }
    }

    /// journal-syncd, a systemd user service, sees none of the shell's variables: `sync init` with the
    /// login in the file `NETRC` names says the service will find none (and a sync with the service's
    /// environment fails saying so); with the login in ~/.netrc it says nothing of it, and that sync
    /// signs in.
    @Test func syncInitSaysWhenTheServiceWillFindNoLogin() async throws {
        try await withTemporaryDirectory { folder in
            let shell = JournalCLI(home: folder + "/shell", now: nil)
            let told = try shell.run("sync", "init", "--hub", try HubFlavor.apache.newHub(in: folder))
            #expect(told.status == 0, "\(told.stderr)")
            #expect(
                told.stderr.contains("journal-syncd, the background service, does not see this shell's NETRC (\(WebDAVServer.netrcPath)), "
                    + "and finds no login for localhost in \(shell.home)/.netrc or "), "\(told.stderr)")
            var service = shell
            service.environment = ["HOME": shell.home, "LC_ALL": "C.UTF-8"]
            let failed = try service.run("sync")
            #expect(failed.status != 0, "\(failed.stderr)")
            for home in [shell.home, folder + "/files"] {
                try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: WebDAVServer.netrcPath, toPath: home + "/.netrc")
            }
            let synced = try service.run("sync")
            #expect(synced.status == 0, "\(synced.stderr)")
            let quiet = try JournalCLI(home: folder + "/files", now: nil).run("sync", "init", "--hub", try HubFlavor.apache.newHub(in: folder))
            #expect(quiet.status == 0 && !quiet.stderr.contains("journal-syncd"), "\(quiet.stderr)")
        }
    }
}

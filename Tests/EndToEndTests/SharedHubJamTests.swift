import Foundation
import Testing
import TestSupport

/// What a member of a shared hub (or anyone who can write into a hub folder) can put there: nothing
/// of it stops another member's sync, each such file is said once, and `sync status` tells what to do.
@Suite(.onTestThreads, .serialized) struct SharedHubJamTests {
    /// A member planted, in another's device folder, a link named like a segment (to that user's
    /// sync.key) and a 0600 file of their own: every sync of the victim failed with "cannot reach the
    /// hub ... Operation not permitted", and its daemon retried for ever.
    @Test func filesAMemberPlantsInAnothersLogAreSetAsideAndSaidOnce() async throws {
        try await withTemporaryDirectory { folder in
            let shared = try SharedHubUsers(in: folder)
            let (victim, member) = (SharedHubUsers.names[0], SharedHubUsers.names[1])
            try shared.joined()
            let log = try shared.deviceFolder(victim)
            let key = shared.home(victim) + "/.config/journal/sync.key"
            let keyBytes = fileBytes(key)
            #expect(try shared.run(member, "/bin/ln", ["-s", key, log + "/000000000090-000000000090.seg"]).status == 0)
            #expect(try shared.run(member, "/bin/sh", ["-c", "umask 077 && echo junk > '\(log)/000000000091-000000000091.seg'"]).status == 0)

            let synced = try shared.journal(victim, ["sync"])
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(synced.stdout.contains("Set aside 2 files from this device's log"), "\(synced.stdout)")
            #expect(synced.stdout.contains("000000000090-000000000090.seg") && synced.stdout.contains("000000000091-000000000091.seg"))
            let again = try shared.journal(victim, ["sync"])
            #expect(again.status == 0 && again.stdout.hasPrefix("Nothing to sync"), "\(again.stdout)\(again.stderr)")

            let status = try shared.journal(victim, ["sync", "status"]).stdout
            #expect(status.contains("Set aside") && status.contains("000000000091-000000000091.seg"), "\(status)")
            let json = try JSONSerialization.jsonObject(with: Data(try shared.journal(victim, ["sync", "status", "--json"]).stdout.utf8)) as? [String: Any]
            let setAside = json?["set_aside"] as? [[String: Any]] ?? []
            #expect(Set(setAside.compactMap { $0["name"] as? String }) == ["000000000090-000000000090.seg", "000000000091-000000000091.seg"])
            #expect(setAside.allSatisfy { $0["outcome"] as? String == "moved" })
            // Moved as they were: the link, not what it points to; the key is untouched.
            var info = stat()
            #expect(lstat(shared.share + "/journal-hub-v1/set-aside/" + (log as NSString).lastPathComponent + "/000000000090-000000000090.seg", &info) == 0)
            #expect((info.st_mode & S_IFMT) == S_IFLNK)
            #expect(fileBytes(key) == keyBytes)
            #expect(try shared.journal(member, ["sync"]).status == 0)
        }
    }

    /// The victim's daemon, asked to sync again and again, sets the planted files aside at its first
    /// sync, says so once, and goes on syncing: it never takes them for a hub out of reach and
    /// retries for ever.
    @Test func aDaemonSetsPlantedFilesAsideOnceAndGoesOnSyncing() async throws {
        try await withTemporaryDirectory { folder in
            let shared = try SharedHubUsers(in: folder)
            let (victim, member) = (SharedHubUsers.names[0], SharedHubUsers.names[1])
            try shared.joined()
            let log = folder + "/victim.log"
            let (daemon, socket) = try shared.startDaemon(victim, stderrPath: log)
            defer { ProcessRunner.stop(daemon, signal: SIGTERM) }
            #expect(socket.receive(until: { $0.hasPrefix("STATUS=Last sync") }, timeout: .seconds(60)) != nil)
            let device = try shared.deviceFolder(victim)
            let key = shared.home(victim) + "/.config/journal/sync.key"
            #expect(try shared.run(member, "/bin/ln", ["-s", key, device + "/000000000090-000000000090.seg"]).status == 0)
            #expect(try shared.run(member, "/bin/sh", ["-c", "umask 077 && echo junk > '\(device)/000000000091-000000000091.seg'"]).status == 0)
            func said() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
            for asked in 1...3 {
                kill(daemon.processIdentifier, SIGUSR1)
                let synced = try await eventually(.seconds(60)) {
                    said().split(separator: "\n").filter { $0.contains("synced (") && $0.contains("request") }.count == asked
                }
                #expect(synced, "\(said())")
            }
            #expect(said().components(separatedBy: "Set aside 2 files from this device's log").count - 1 == 1, "\(said())")
            #expect(!said().contains("sync failed") && !said().contains("cannot reach"), "\(said())")
            #expect(daemon.isRunning)
            let status = try JSONSerialization.jsonObject(with: Data(try shared.journal(victim, ["sync", "status", "--json"]).stdout.utf8)) as? [String: Any]
            #expect((status?["last_sync"] as? [String: Any])?["result"] as? String == "ok", "\(String(describing: status))")
        }
    }

    /// Files a member cannot read in another device's log, and a device folder that is a link, are
    /// no segments: passed over and said once, never "cannot reach the hub", never a failure at
    /// every sync. A link in the hub is to be removed, which no chmod does.
    @Test func whatCannotBeReadInOtherLogsIsPassedOverOnce() async throws {
        try await withTemporaryDirectory { folder in
            let shared = try SharedHubUsers(in: folder)
            let (reader, member) = (SharedHubUsers.names[0], SharedHubUsers.names[1])
            try shared.joined()
            #expect(try shared.journal(member, ["add", "black-tea", "--note", "after the planting"]).status == 0)
            #expect(try shared.journal(member, ["sync"]).status == 0)
            // Planted after the member's last sync, which would have set aside what is in its own log.
            let memberLog = try shared.deviceFolder(member)
            #expect(try shared.run(member, "/bin/sh", ["-c", "umask 077 && echo junk > '\(memberLog)/000000000001-000000000099.seg'"]).status == 0)
            let fake = shared.share + "/journal-hub-v1/devices/0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a"
            #expect(try shared.run(member, "/bin/ln", ["-s", "/etc", fake]).status == 0)

            let synced = try shared.journal(reader, ["sync"])
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(synced.stdout.contains("Passed over 2 files that cannot be read in other devices' logs"), "\(synced.stdout)")
            #expect(!synced.stdout.contains("cannot reach") && !synced.stderr.contains("cannot reach"))
            let notes = try shared.journal(reader, ["sql", "select note from history order by note", "--format", "csv"]).stdout
            #expect(notes.contains("after the planting"), "\(notes)")
            let again = try shared.journal(reader, ["sync"])
            #expect(again.status == 0 && again.stdout.hasPrefix("Nothing to sync"), "\(again.stdout)\(again.stderr)")

            let status = try shared.journal(reader, ["sync", "status"]).stdout
            #expect(status.contains("\(fake) is a symbolic link inside the hub") && status.contains("remove it (rm \(fake))"), "\(status)")
            #expect(!status.contains("chmod -R"), "\(status)")
        }
    }

    @Test func aHubDescriptorOnlyAnotherMemberCanReadIsSaidAsThat() async throws {
        try await withTemporaryDirectory { folder in
            let shared = try SharedHubUsers(in: folder)
            let (victim, member) = (SharedHubUsers.names[0], SharedHubUsers.names[1])
            try shared.joined()
            let hubFolder = shared.share + "/journal-hub-v1"
            let swap = "cp '\(hubFolder)/hub.json' '\(hubFolder)/.mine' && chmod 600 '\(hubFolder)/.mine' && mv '\(hubFolder)/.mine' '\(hubFolder)/hub.json'"
            #expect(try shared.run(member, "/bin/sh", ["-c", swap]).status == 0)
            let refused = try shared.journal(victim, ["sync"])
            #expect(refused.status == 78, "\(refused.stderr)")
            #expect(refused.stderr.contains("hub.json cannot be read (permission denied)") && refused.stderr.contains("another user of the hub"),
                    "\(refused.stderr)")
            #expect(!refused.stderr.contains("cannot reach"))
        }
    }

    /// 20,000 junk files in a device's log made one 1.7 MB line of `journal sync` naming each.
    @Test func manyJunkFilesAreNamedAFewAtATimeAndListedWholeInJSON() async throws {
        try await withTemporaryDirectory { folder in
            let machine = try JoinedMachines(in: folder, names: ["a"]).machines[0]
            try machine.run("add", "espresso")
            #expect(try machine.run("sync").status == 0)
            let device = (try machine.json("sync", "status", "--json") as? [String: Any])?["device"] as? String ?? ""
            let log = folder + "/hub/journal-hub-v1/devices/" + device
            for index in 0..<20_000 { FileManager.default.createFile(atPath: log + "/junk-\(index).txt", contents: Data("x".utf8)) }
            let synced = try machine.run("sync")
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(synced.stdout.utf8.count < 1000, "\(synced.stdout.prefix(2000))")
            #expect(synced.stdout.contains("Set aside 20000 files") && synced.stdout.contains("and 19997 more"), "\(synced.stdout)")
            let status = try machine.run("sync", "status")
            #expect(status.stdout.utf8.count < 4000 && status.stdout.contains("journal sync status --json"), "\(status.stdout.prefix(2000))")
            let json = try machine.json("sync", "status", "--json") as? [String: Any]
            #expect((json?["set_aside"] as? [Any])?.count == 20_000)
        }
    }
}

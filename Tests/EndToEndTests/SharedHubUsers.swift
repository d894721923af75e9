import Foundation
import Testing
import TestSupport

/// Real Unix users in one group, sharing a hub folder (a family NAS, or two machines whose NFS user ids
/// differ), each running copies of the programs from a folder they can reach, in a home of their own.
struct SharedHubUsers {
    static let group = "journaltest"
    static let names = ["journaltest-a", "journaltest-b"]

    let folder: String
    /// The shared folder: the group's, 2770.
    let share: String
    let binaries: String

    /// Makes the group and users (or finds them from an earlier run) and the shared folder in `folder`.
    init(in folder: String) throws {
        self.folder = folder
        _ = try ProcessRunner.run("/usr/sbin/groupadd", ["-f", Self.group], environment: [:])
        for user in Self.names {
            _ = try ProcessRunner.run("/usr/sbin/useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", "-G", Self.group, user], environment: [:])
        }
        #expect(chmod(folder, 0o755) == 0)
        binaries = try ProcessRunner.executablesForOtherUsers(in: folder)
        share = folder + "/share"
        try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
        // useradd fails when an earlier run made the user; either way the user must be there now.
        let groupOfA = try #require(gid_t(try Self.id(Self.names[0], "-g")), "useradd did not make \(Self.names[0])")
        #expect(chown(share, 0, groupOfA) == 0)
        _ = try ProcessRunner.run("/bin/chgrp", [Self.group, share], environment: [:])
        #expect(chmod(share, 0o2770) == 0)
    }

    static func id(_ user: String, _ flag: String) throws -> String {
        try ProcessRunner.run("/usr/bin/id", [flag, user], environment: [:]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func home(_ user: String) -> String { folder + "/" + user }

    /// Runs `journal` as `user`, in a home of its own.
    func journal(_ user: String, _ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        try run(user, binaries + "/journal", arguments, stdin: stdin)
    }

    /// Runs `program` as `user` in `user`'s home.
    func run(_ user: String, _ program: String, _ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        let home = home(user)
        if !FileManager.default.fileExists(atPath: home) {
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            _ = try ProcessRunner.run("/bin/chown", [user, home], environment: [:])
        }
        return try ProcessRunner.run(
            "/usr/bin/setpriv", ["--reuid=" + user, "--regid=" + user, "--init-groups", program] + arguments,
            environment: ["HOME": home, "LC_ALL": "C.UTF-8"], stdin: stdin.map { Data($0.utf8) })
    }

    /// `user`'s daemon, started as systemd would and waited for until it says READY=1 on a socket of
    /// the test's own; its log, each sync's outcome included, goes to `stderrPath`. The caller owns
    /// the process.
    func startDaemon(_ user: String, stderrPath: String) throws -> (ChildProcess, NotifySocket) {
        let socket = try NotifySocket(path: folder + "/\(user).sock")
        #expect(chmod(socket.path, 0o777) == 0)
        let process = try ProcessRunner.start(
            "/usr/bin/setpriv", ["--reuid=" + user, "--regid=" + user, "--init-groups", binaries + "/journal-syncd", "--interval", "1h", "--log-level", "debug"],
            environment: ["HOME": home(user), "LC_ALL": "C.UTF-8", "NOTIFY_SOCKET": socket.path], stderrPath: stderrPath)
        guard socket.receive(until: { $0 == "READY=1" }, timeout: .seconds(60)) != nil else {
            ProcessRunner.stop(process)
            throw DaemonNotReady(arguments: [user])
        }
        return (process, socket)
    }

    /// Both users joined to a shared hub in `share`, each with a drink synced.
    func joined() throws {
        #expect(try journal(Self.names[0], ["sync", "init", "--folder", share, "--shared"]).status == 0)
        let key = try journal(Self.names[0], ["sync", "key"]).stdout
        let joined = try journal(Self.names[1], ["sync", "init", "--folder", share, "--key-file", "-"], stdin: key)
        #expect(joined.status == 0, "\(joined.stderr)")
        for user in Self.names {
            #expect(try journal(user, ["add", "espresso", "--note", "by \(user)"]).status == 0)
            let synced = try journal(user, ["sync"])
            #expect(synced.status == 0, "\(user): \(synced.stderr)")
        }
    }

    /// The device folder of `user`'s journal in the hub.
    func deviceFolder(_ user: String) throws -> String {
        let json = try journal(user, ["sync", "status", "--json"]).stdout
        let device = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["device"] as? String ?? ""
        return share + "/journal-hub-v1/devices/" + device
    }
}

import Foundation
import Testing
import TestSupport

/// What journald shows of the daemon: a priority on every line under journald, so that
/// `journalctl -p err` finds every error; a timestamp and level elsewhere.
@Suite(.onTestThreads, .serialized, .timeLimit(.minutes(6))) struct DaemonLogTests {
    /// The daemon's stderr while its hub is gone (so a sync fails), with or without journald.
    func log(underJournald: Bool, in folder: String) async throws -> [String] {
        let joined = try JoinedMachines(in: folder, now: nil)
        let machine = joined.machines[0]
        try FileManager.default.moveItem(atPath: joined.hub, toPath: folder + "/unmounted")
        let path = folder + "/stderr"
        FileManager.default.createFile(atPath: path, contents: nil)
        var environment = machine.environment
        if underJournald {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value ?? 0
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
            environment["JOURNAL_STREAM"] = "\(device):\(inode)"
        }
        let socket = try NotifySocket(path: folder + "/notify.sock")
        environment["NOTIFY_SOCKET"] = socket.path
        let daemon = try ProcessRunner.start(ProcessRunner.executable("journal-syncd"), ["--log-level", "debug"], environment: environment, stderrPath: path)
        defer { ProcessRunner.stop(daemon, signal: SIGTERM) }
        #expect(socket.receive(until: { $0.hasPrefix("STATUS=Sync failed") }, timeout: .seconds(15)) != nil)
        ProcessRunner.stop(daemon, signal: SIGTERM)
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func underJournaldEveryLineCarriesItsPriorityAndNoTimestamp() async throws {
        try await withTemporaryDirectory { folder in
            let lines = try await log(underJournald: true, in: folder)
            #expect(!lines.isEmpty)
            for line in lines { #expect(line.range(of: #"^<[2-7]>[^<0-9]"#, options: .regularExpression) != nil, "\(line)") }
            #expect(lines.contains { $0.hasPrefix("<3>sync failed") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("<6>watching") })
            #expect(lines.contains { $0.hasPrefix("<7>") })
            #expect(!lines.contains { $0.contains("2026-") || $0.contains(" error ") })
        }
    }

    @Test func elsewhereEveryLineCarriesItsTimeAndLevel() async throws {
        try await withTemporaryDirectory { folder in
            let lines = try await log(underJournald: false, in: folder)
            for line in lines {
                #expect(line.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} (trace|debug|info|notice|warning|error|critical) "#, options: .regularExpression) != nil, "\(line)")
            }
            #expect(lines.contains { $0.contains(" error sync failed") }, "\(lines)")
            // Read as a person would: no doubled punctuation.
            for line in lines { #expect(!line.contains("..") && !line.contains(".;") && !line.contains(";."), "\(line)") }
        }
    }
}

/// What reaches the log cannot be forged or flooded from outside the daemon.
@Suite(.onTestThreads, .timeLimit(.minutes(6))) struct DaemonLogInputTests {
    /// The journal's path is a person's to choose, newlines included; swift-service-lifecycle puts it
    /// in its log metadata, which reached journald unescaped: a line starting `<3>` of its own.
    @Test func metadataIsEscapedAsMessagesAre() async throws {
        try await withTemporaryDirectory { folder in
            let machine = JournalCLI(home: folder + "/home", now: nil)
            let odd = folder + "/odd\n<3>forged"
            try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: true)
            #expect(try machine.run("--db", odd + "/journal.db", "sync", "init", "--folder", folder + "/hub").status == 0)
            let path = folder + "/stderr"
            FileManager.default.createFile(atPath: path, contents: nil)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            var environment = machine.environment
            environment["JOURNAL_STREAM"] = "\((attributes[.systemNumber] as? NSNumber)?.uint64Value ?? 0):\((attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0)"
            let socket = try NotifySocket(path: folder + "/notify.sock")
            environment["NOTIFY_SOCKET"] = socket.path
            let daemon = try ProcessRunner.start(
                daemonBinary, ["--db", odd + "/journal.db", "--log-level", "debug"], environment: environment, stderrPath: path)
            defer { ProcessRunner.stop(daemon) }
            #expect(socket.receive(until: { $0 == "READY=1" }, timeout: .seconds(15)) != nil)
            ProcessRunner.stop(daemon, signal: SIGTERM)
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.contains("sl-service=") }, "the test needs the lifecycle's metadata: \(lines)")
            for line in lines { #expect(line.range(of: #"^<[2-7]>[^<0-9]"#, options: .regularExpression) != nil, "\(line)") }
            #expect(!lines.contains { $0.hasPrefix("<3>forged") }, "\(lines)")
        }
    }

    /// 876,000 SIGUSR1 in 3 s wrote 62,215 "sync requested" lines: a request that merges into one
    /// still waiting is not news.
    @Test func aFloodOfRequestsIsLoggedOncePerSyncItCauses() async throws {
        try await withTemporaryDirectory { folder in
            let machine = try JoinedMachines(in: folder, names: ["a"], now: nil).machines[0]
            let path = folder + "/stderr"
            let (daemon, socket) = try startDaemon(machine, ["--log-level", "debug"], socketPath: folder + "/notify.sock", stderrPath: path)
            defer { ProcessRunner.stop(daemon) }
            for _ in 0..<20_000 { kill(daemon.processIdentifier, SIGUSR1) }
            _ = socket
            /// The log's lines about requests and syncs, in order.
            func lines() throws -> [Substring] {
                try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
                    .filter { $0.contains("sync requested") || $0.contains("synced (") || $0.contains("sync failed") }
            }
            // Every request logged is served by a sync of its own, once the loop catches up.
            #expect(try await eventually {
                let seen = try lines()
                return seen.filter { $0.contains("sync requested") }.count <= seen.filter { !$0.contains("sync requested") }.count
            })
            kill(daemon.processIdentifier, SIGTERM)
            daemon.waitUntilExit()
            // At any point of the log, the requests said outrun the syncs by at most two: one being
            // served, one waiting. Requests that merged into one waiting were not said again.
            var ahead = 0, said = 0
            for line in try lines() {
                if line.contains("sync requested") { said += 1; ahead += 1 } else { ahead -= 1 }
                #expect(ahead <= 2, "\(line)")
                if ahead > 2 { break }
            }
            #expect(said >= 1)
        }
    }
}

/// libdispatch, on Linux, logs "Failed to set thread priority for worker thread: ... errno=13" in
/// every user service: its threads of high quality of service ask for a priority a user may not
/// take. The daemon runs on threads of its own and an epoll loop, so it never asks.
@Suite(.onTestThreads, .timeLimit(.minutes(6))) struct DaemonPriorityTests {
    @Test func asAnOrdinaryUserItNeverAsksForAPriorityItCannotHave() async throws {
        try await withTemporaryDirectory { folder in
            #expect(chmod(folder, 0o755) == 0)
            let daemon = try ProcessRunner.executablesForOtherUsers(in: folder) + "/journal-syncd"
            #expect(chown(folder, 65534, 65534) == 0)
            let trace = folder + "/trace", log = folder + "/stderr"
            let socket = try NotifySocket(path: folder + "/notify.sock")
            #expect(chmod(socket.path, 0o777) == 0)
            let traced = try ProcessRunner.start(
                "/usr/bin/strace", ["-f", "-e", "trace=setpriority", "-o", trace,
                                    "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", daemon],
                environment: ["HOME": folder, "NOTIFY_SOCKET": socket.path], stderrPath: log)
            defer { ProcessRunner.stop(traced) }
            // Up before it is asked to stop; strace ends with the daemon, its child. The limit only
            // guards against a hang: in a whole run a fresh copy of the debug daemon under strace took
            // 70-84 s to be ready, and once more than 60.
            let ready = socket.receive(until: { $0 == "READY=1" }, timeout: .seconds(300)) != nil
            #expect(ready, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            let children = (try? String(contentsOfFile: "/proc/\(traced.processIdentifier)/task/\(traced.processIdentifier)/children", encoding: .utf8)) ?? ""
            let daemonID = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
            kill(daemonID, SIGTERM)
            traced.waitUntilExit()
            let calls = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(calls.contains("+++ exited with 0 +++") || calls.contains("exited with 0"), "\(said)\n\(calls)")
            #expect(!calls.contains("EACCES"), "\(calls)")
            #expect(!said.contains("thread priority"), "\(said)")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// What journald shows of the daemon: a priority on every line under journald, so that
/// `journalctl -p err` finds every error; a timestamp and level elsewhere.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DaemonLogTests {
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

/// libdispatch, on Linux, logs "Failed to set thread priority for worker thread: ... errno=13" in
/// every user service: its threads of high quality of service ask for a priority a user may not
/// take. The daemon runs on threads of its own and an epoll loop, so it never asks.
@Suite(.timeLimit(.minutes(2))) struct DaemonPriorityTests {
    @Test func asAnOrdinaryUserItNeverAsksForAPriorityItCannotHave() async throws {
        try await withTemporaryDirectory { folder in
            #expect(chmod(folder, 0o755) == 0)
            let daemon = try ProcessRunner.executablesForOtherUsers(in: folder) + "/journal-syncd"
            #expect(chown(folder, 65534, 65534) == 0)
            let trace = folder + "/trace"
            let result = try ProcessRunner.run(
                "/usr/bin/timeout", ["-s", "TERM", "2", "/usr/bin/strace", "-f", "-e", "trace=setpriority", "-o", trace,
                                     "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                     daemon],
                environment: ["HOME": folder])
            let calls = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            #expect(calls.contains("+++ exited with 0 +++") || calls.contains("exited with 0"), "\(result.stderr)\n\(calls)")
            #expect(!calls.contains("EACCES"), "\(calls)")
            #expect(!result.stderr.contains("thread priority"), "\(result.stderr)")
        }
    }
}

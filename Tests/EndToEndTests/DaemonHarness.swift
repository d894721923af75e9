import Foundation
import TestSupport

/// Running `journal-syncd` as systemd would, for the tests that need real daemons.
let daemonBinary = ProcessRunner.executable("journal-syncd")

/// Waits until `condition` holds, checking every 20 ms, for at most `timeout`.
func eventually(_ timeout: Duration = .seconds(15), _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try condition()
}

/// A daemon for `machine`, started as systemd would and waited for until it says READY=1 on a
/// notification socket of the test's own (its path is `socketPath`). The caller owns the process.
func startDaemon(
    _ machine: JournalCLI, _ arguments: [String] = [], socketPath: String, stderrPath: String? = nil
) throws -> (ChildProcess, NotifySocket) {
    let socket = try NotifySocket(path: socketPath)
    var environment = machine.environment
    environment["NOTIFY_SOCKET"] = socket.path
    let process = try ProcessRunner.start(daemonBinary, arguments, environment: environment, stderrPath: stderrPath)
    guard socket.receive(until: { $0 == "READY=1" }, timeout: .seconds(15)) != nil else {
        ProcessRunner.stop(process)
        throw DaemonNotReady(arguments: arguments)
    }
    return (process, socket)
}

struct DaemonNotReady: Error {
    let arguments: [String]
}

func notes(_ machine: JournalCLI) throws -> [String] {
    let drinks = try JSONSerialization.jsonObject(with: Data(try machine.run("list", "--json").stdout.utf8)) as? [[String: Any]]
    return (drinks ?? []).map { ($0["note"] as? String) ?? ($0["drink"] as? String ?? "") }
}

import Foundation

/// A command run on a pseudo-terminal (`script` gives it one), as a person at a terminal runs it:
/// what the terminal shows is kept in a file the test reads as it comes, and lines are typed when the
/// test has seen what they answer. Typing before that would race the command: a password prompt
/// flushes what was typed before it, as ssh and sudo do.
public final class TerminalSession {
    public let process: ChildProcess
    private let keyboard: ClosedOnExecPipe
    private let screenPath: String

    /// Starts `arguments` (an executable and its arguments) with `environment`; what the terminal
    /// shows goes to `screenPath`, which is created empty.
    public init(_ arguments: [String], environment: [String: String], screenPath: String) throws {
        self.screenPath = screenPath
        keyboard = try ClosedOnExecPipe()
        guard FileManager.default.createFile(atPath: screenPath, contents: nil) else {
            throw FixtureError("could not create \(screenPath)")
        }
        let command = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        process = try ChildProcess(
            "/usr/bin/script", ["-qec", command, "/dev/null"],
            environment: environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine },
            standardInput: keyboard.reading, standardOutput: try FileHandle(forWritingTo: URL(fileURLWithPath: screenPath)),
            standardError: FileHandle.standardError)
        try keyboard.reading.close()
    }

    deinit {
        ProcessRunner.stop(process)
        try? keyboard.writing.close()
    }

    /// What the terminal has shown so far.
    public var shown: String {
        (try? String(contentsOfFile: screenPath, encoding: .utf8)) ?? ""
    }

    /// Types `line` and Enter.
    public func type(_ line: String) {
        keyboard.send(Data((line + "\n").utf8))
    }

    /// Waits until the terminal shows `text`, or the command has ended without showing it (false), or
    /// `limit` has passed, which only guards against a hang.
    public func waitUntilShown(_ text: String, limit: Duration = .seconds(300)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if shown.contains(text) { return true }
            if !process.isRunning { return shown.contains(text) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return shown.contains(text)
    }

    /// Waits for the command to end, and gives its exit status; nil when it has not ended in `limit`,
    /// which only guards against a hang.
    public func exitStatus(limit: Duration = .seconds(300)) async throws -> Int32? {
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.isRunning ? nil : process.terminationStatus
    }
}

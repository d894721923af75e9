import Foundation

/// What a finished process printed and how it exited.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs executables built by this package, as a user would from a shell.
public enum ProcessRunner {
    /// The folder holding the built products: the test bundle sits next to them. `JOURNAL_TEST_PRODUCTS`
    /// names another, to run a test against the programs of an earlier commit and see it fail there.
    public static var productsFolder: String {
        if let other = ProcessInfo.processInfo.environment["JOURNAL_TEST_PRODUCTS"], !other.isEmpty { return other }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    public static func executable(_ name: String) -> String {
        productsFolder + "/" + name
    }

    /// Runs `executable` with `arguments` and an environment of only `environment` (plus PATH), feeding
    /// `stdin`, and waits for it.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], stdin: Data? = nil
    ) throws -> ProcessResult {
        let output = try ClosedOnExecPipe()
        let errors = try ClosedOnExecPipe()
        let input = try ClosedOnExecPipe()
        let process = try ChildProcess(
            executable, arguments, environment: withPath(environment), standardInput: input.reading,
            standardOutput: output.writing, standardError: errors.writing)
        // The process has its copies: with these closed, reading to the end ends when it does.
        for end in [output.writing, errors.writing, input.reading] { try end.close() }
        if let stdin { input.send(stdin) }
        try input.writing.close()
        // Read both pipes before waiting, so a chatty process cannot block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = readToEnd(errors.reading)
            group.leave()
        }
        let outputData = readToEnd(output.reading)
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }
}

extension ProcessRunner {
    /// Everything `handle` gives until its end. Not `readDataToEndOfFile`: Foundation's traps when a
    /// signal interrupts its read (EINTR), which the test process's own children's signals do.
    static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return data
            }
        }
    }

    /// Starts `executable` without waiting for it; its output is discarded, or its stderr written to
    /// `stderrPath`. The caller owns the process and must end it (`stop`) even when the test fails.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String], stderrPath: String? = nil
    ) throws -> ChildProcess {
        let errors = try stderrPath.map { path in
            if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
            return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
        return try ChildProcess(executable, arguments, environment: withPath(environment), standardError: errors)
    }

    /// `environment`, with this process's PATH when it names none.
    private static func withPath(_ environment: [String: String]) -> [String: String] {
        var environment = environment
        environment["PATH"] = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return environment
    }

    /// Sends `signal` and waits for the process to end; one that has not ended a minute later (a
    /// daemon that hung) is killed, so that a test's clean-up never hangs the run: its exit status
    /// then says SIGKILL.
    public static func stop(_ process: ChildProcess, signal: Int32 = SIGKILL) {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

extension ProcessRunner {
    /// Copies of the built programs in `folder`/bin, for tests that run them as another user: the
    /// products folder sits in the checkout, which may be private to its owner (a clone in a 0700
    /// temporary folder). `journal` finds the programs it hands work to beside itself, so all go.
    /// `folder` and the folders above it must let others through.
    public static func executablesForOtherUsers(in folder: String) throws -> String {
        let bin = folder + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for name in ["journal", "journal-syncd"] {
            try copyExecutable(executable(name), to: bin + "/" + name)
        }
        chmod(bin, 0o755)
        var path = bin
        while !path.isEmpty && path != "/" {
            if try permissions(path) & 0o001 == 0 { throw NotReachableByOthers(folder: path) }
            path = (path as NSString).deletingLastPathComponent
        }
        return bin
    }

    /// Copies the program at `source` to `destination`, mode 0755. Written through a descriptor closed
    /// on exec: FileManager's copy leaves its descriptor open across exec, so a process another test
    /// starts meanwhile keeps the copy open for writing, and running it fails with "Text file busy".
    public static func copyExecutable(_ source: String, to destination: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let descriptor = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw FixtureError("cannot create \(destination): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw FixtureError("cannot write \(destination): \(String(cString: strerror(errno)))") }
                offset += written
            }
        }
        guard fchmod(descriptor, 0o755) == 0 else { throw FixtureError("cannot chmod \(destination)") }
    }

    public struct NotReachableByOthers: Error, CustomStringConvertible {
        public let folder: String
        public var description: String { "other users cannot pass through \(folder): run the tests from a TMPDIR they can reach" }
    }
}

/// Runs blocking work (processes waited for one after another) on a thread of its own, so that it
/// does not hold one of Swift's few cooperative threads, which other tests' tasks need to go on.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

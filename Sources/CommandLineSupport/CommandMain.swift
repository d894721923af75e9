import ArgumentParser
import JournalKit

import Glibc

extension AsyncParsableCommand {
    /// Parses the command line and carries out the command with `executor` preferred for its tasks:
    /// through `route` when it takes the command (a command this program hands to another, or does
    /// in its own way), else by its `run()`. Then exits by the one error policy: the project's own
    /// failures are `program: message` and their exit status, and so are the parser's (a missing
    /// argument, a `ValidationError`), its usage lines after; `--help` and `--version` are the
    /// argument parser's to print.
    @MainActor public static func runAsMain(
        program: String, executor: any TaskExecutor, route: CommandRoute = { _ in false }
    ) async {
        CommandMain.prepareProcess()
        do {
            try ArgumentText.check()
            try await withTaskExecutorPreference(executor) {
                var command: any ParsableCommand
                do { command = try parseAsRoot() } catch {
                    let status = exitCode(for: error)
                    // Help and --version are the parser's to print.
                    guard status != .success else { exit(withError: error) }
                    if let unknown = UnknownCommand.find(in: Array(CommandLine.arguments.dropFirst()), root: Self.self) {
                        FailureReport.exit(unknown, program: program)
                    }
                    StandardStreams.writeError(FailureReport.parserMessage(fullMessage(for: error), program: program))
                    Glibc.exit(status.rawValue)
                }
                if try await route(command) { return }
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            }
            try CommandMain.checkOutput()
        } catch {
            if FailureReport.isOwn(error) { FailureReport.exit(error, program: program) }
            let status = exitCode(for: error)
            guard status != .success else { exit(withError: error) }
            StandardStreams.writeError(FailureReport.parserMessage(fullMessage(for: error), program: program))
            Glibc.exit(status.rawValue)
        }
    }
}

/// Carries out a parsed command in a program's own way; true when it did (or handed it on), false to
/// let the command's `run()` do it.
public typealias CommandRoute = @MainActor (any ParsableCommand) async throws -> Bool

/// A command this program parsed but carries out only through a route, and none took it: a build
/// that wired its programs wrongly, said rather than doing nothing.
public struct UnroutedCommand: JournalFailure {
    public let command: String

    public init(command: String) { self.command = command }

    public var kind: FailureKind { .failure }
    public var description: String {
        "`journal \(command)` is not carried out by this program; run it as journal \(command) from a complete install."
    }
}

/// What every command's process does first and last, whichever parser read its command line.
public enum CommandMain {
    /// A closed pipe is seen as EPIPE on the write, which ends the command quietly, rather than as a
    /// signal that kills it.
    public static func prepareProcess() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Output that could not be all written is a failure: what was shown or exported is incomplete.
    public static func checkOutput() throws {
        if let failure = StandardStreams.writeFailure { throw OutputError(code: failure) }
    }

    /// True when every argument is UTF-8 text (else the full parser says which is not).
    public static var argumentsAreText: Bool { (try? ArgumentText.check()) != nil }

    /// Runs a command already read from its command line, synchronously, and exits by the one error
    /// policy: 0, or `program: message` and its exit status.
    public static func runAndExit(program: String, _ body: () throws -> Void) -> Never {
        prepareProcess()
        do {
            try body()
            try checkOutput()
            exit(0)
        } catch {
            FailureReport.exit(error, program: program)
        }
    }
}

import ArgumentParser
import JournalKit

import Glibc

extension AsyncParsableCommand {
    /// Parses the command line and runs the command with `executor` preferred for its tasks, then
    /// exits by the one error policy: parsing errors, `--help` and `--version` are the argument
    /// parser's to print; every other failure is `program: message` and its exit status.
    @MainActor public static func runAsMain(program: String, executor: SerialThreadExecutor) async {
        CommandMain.prepareProcess()
        do {
            try ArgumentText.check()
            try await withTaskExecutorPreference(executor) {
                var command: any ParsableCommand
                do { command = try parseAsRoot() } catch { exit(withError: error) }
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            }
            try CommandMain.checkOutput()
        } catch {
            // `--help` and `help` are commands of the parser's that end by throwing: its own errors (and
            // a ValidationError or ExitCode a command throws) are its to print.
            if String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") { exit(withError: error) }
            FailureReport.exit(error, program: program)
        }
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

import ArgumentParser
import JournalKit

import Glibc

extension AsyncParsableCommand {
    /// Parses the command line and runs the command with `executor` preferred for its tasks, then
    /// exits by the one error policy: parsing errors, `--help` and `--version` are the argument
    /// parser's to print; every other failure is `program: message` and its exit status.
    @MainActor public static func runAsMain(program: String, executor: SerialThreadExecutor) async {
        // A closed pipe is seen as EPIPE on the write, which ends the command quietly, rather than as
        // a signal that kills it.
        signal(SIGPIPE, SIG_IGN)
        do {
            try ArgumentText.checkIsUTF8()
            try await withTaskExecutorPreference(executor) {
                var command: any ParsableCommand
                do { command = try parseAsRoot() } catch { exit(withError: error) }
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            }
            if let failure = StandardStreams.writeFailure { throw OutputError(code: failure) }
        } catch {
            // `--help` and `help` are commands of the parser's that end by throwing: its own errors (and
            // a ValidationError or ExitCode a command throws) are its to print.
            if String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") { exit(withError: error) }
            FailureReport.exit(error, program: program)
        }
    }
}

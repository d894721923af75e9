import JournalKit

import Glibc

/// The one error policy of the journal's programs: every failure is one message on stderr, prefixed
/// with the program's name, and an exit status from its kind. Never a stack trace.
public enum FailureReport {
    /// The exit status for a kind of failure.
    public static func status(_ kind: FailureKind) -> Int32 { kind.exitStatus }

    /// True for the failures the journal's own code throws, which this policy words; any other error
    /// (the argument parser's own, which also stand for `--help`) is its thrower's to print.
    public static func isOwn(_ error: any Error) -> Bool {
        error is any JournalFailure || error is SQLiteError
    }

    /// The message for a person, with the remedy in this program's words, and the exit status.
    public static func describe(_ error: any Error) -> (message: String, status: Int32) {
        var message = ended(failureMessage(error))
        if let remedy = (error as? any JournalFailure)?.remedy { message += " " + ended(remedy.advice) }
        return (message, status(failureKind(error)))
    }

    /// The argument parser's words for a mistake it found ("Error: Missing expected argument
    /// '<drink> ...'", then its help and usage lines), in the voice of every other message: the
    /// program's name for "Error:", the sentence ended; the lines after it kept.
    public static func parserMessage(_ text: String, program: String) -> String {
        var lines = text.trimmingTrailingSpaces.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first else { return program + ":" }
        lines[0] = program + ": " + ended(first.hasPrefix("Error: ") ? String(first.dropFirst("Error: ".count)) : first)
        return lines.joined(separator: "\n")
    }

    /// `text` with its last sentence ended: a message and the remedy after it are two sentences,
    /// not one run on ("...from 0 to 1000 mg Give the amount").
    static func ended(_ text: String) -> String {
        let trimmed = text.trimmingTrailingSpaces
        guard let last = trimmed.last else { return text }
        // A message that ends in a list (the candidates of an ambiguous id) ends with its last item.
        if trimmed.contains("\n"), let lastLine = trimmed.split(separator: "\n").last, lastLine.hasPrefix("  ") { return trimmed }
        if ".!?".contains(last) { return trimmed }
        // A sentence that ends in a quotation or a parenthesis is ended when what is inside is.
        if "'\")`".contains(last), let before = trimmed.dropLast().last, ".!?".contains(before) { return trimmed }
        return trimmed + "."
    }

    /// Prints `error` as `program: message` on stderr and exits with its status.
    public static func exit(_ error: any Error, program: String) -> Never {
        let (message, status) = describe(error)
        // A message can quote what a person typed or another device wrote: shown, never acted on.
        let lines = (program + ": " + TerminalText.escapedKeepingLines(message)).split(separator: "\n", omittingEmptySubsequences: false)
        StandardStreams.writeError(lines.map { (Journald.isStderr ? Journald.errorPrefix : "") + $0 }.joined(separator: "\n"))
        Glibc.exit(status)
    }
}

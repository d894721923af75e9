/// What kind of mistake an error is, which decides the exit status the CLI gives it.
public enum FailureKind: Sendable {
    /// A bad flag or value on the command line (exit 64).
    case usage
    /// Data that cannot be used: an unknown drink, a time or file that does not parse (exit 65).
    case badData
    /// Anything else (exit 1).
    case failure
}

/// An error meant for a person: its description says what went wrong and what would work.
public protocol JournalFailure: Error, CustomStringConvertible {
    var kind: FailureKind { get }
}

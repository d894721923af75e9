extension SQLiteError {
    /// What a SQLite failure means for the person at the keyboard. Every write is one transaction, so
    /// whatever failed left the journal as it was.
    public var userMessage: String {
        if isBusy {
            return "the journal is busy: another process held its write lock for over 15 seconds. Nothing was "
                + "changed; try again."
        }
        if isDiskFull { return "the disk is full. Nothing was changed; free some space and try again." }
        if isReadOnly { return "the journal cannot be written (read-only file, folder or disk). Nothing was changed." }
        if isNotADatabase { return "the journal file is damaged (\(message)). Nothing was changed." }
        return "the journal could not be read or written: \(message). Nothing was changed."
    }
}

/// The message for a person of any error the journal's libraries throw (without the remedy, which
/// the program in use words).
public func failureMessage(_ error: any Error) -> String {
    switch error {
    case let failure as any JournalFailure: return failure.description
    case let failure as SQLiteError: return failure.userMessage
    default: return "\(error)"
    }
}

/// `failureMessage` without its final period: what goes inside a sentence, in parentheses after
/// what failed.
public func failureClause(_ error: any Error) -> String {
    let message = failureMessage(error)
    return message.hasSuffix(".") ? String(message.dropLast()) : message
}

/// The kind of any error the journal's libraries throw: a read-only journal is a setup to change,
/// not a failure to retry.
public func failureKind(_ error: any Error) -> FailureKind {
    switch error {
    case let failure as any JournalFailure: return failure.kind
    case let failure as SQLiteError: return failure.isReadOnly ? .setup : .failure
    default: return .failure
    }
}

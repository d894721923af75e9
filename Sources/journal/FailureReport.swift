import ArgumentParser
import JournalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An error as the user sees it: one message on stderr and an exit status.
struct FailureReport {
    let error: any Error

    init(_ error: any Error) { self.error = error }

    func exit() -> Never {
        switch error {
        case let failure as any JournalFailure:
            finish(failure.description, status: Self.status(failure.kind))
        case let failure as SQLiteError:
            finish(Self.message(for: failure), status: 1)
        default:
            // Argument parsing errors, --help and --version: ArgumentParser prints and exits.
            Journal.exit(withError: error)
        }
    }

    /// The message `exit()` would print for `error`, for places that report an error without exiting.
    static func message(of error: any Error) -> String {
        switch error {
        case let failure as any JournalFailure: return failure.description
        case let failure as SQLiteError: return message(for: failure)
        default: return "\(error)"
        }
    }

    static func status(_ kind: FailureKind) -> Int32 {
        switch kind {
        case .usage: return 64
        case .badData: return 65
        case .failure: return 1
        }
    }

    /// What a SQLite failure means for the person at the keyboard. Every write is one transaction, so
    /// whatever failed left the journal as it was.
    static func message(for error: SQLiteError) -> String {
        if error.isBusy {
            return "the journal is busy: another process held its write lock for over 15 seconds. Nothing was "
                + "changed; try again."
        }
        if error.isDiskFull { return "the disk is full. Nothing was changed; free some space and try again." }
        if error.isReadOnly { return "the journal cannot be written (read-only file, folder or disk). Nothing was changed." }
        if error.isNotADatabase { return "the journal file is damaged (\(error.message)). Nothing was changed." }
        return "the journal could not be read or written: \(error.message). Nothing was changed."
    }

    private func finish(_ message: String, status: Int32) -> Never {
        Output.error("journal: " + message)
        Glibc.exit(status)
    }
}

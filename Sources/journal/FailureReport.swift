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
            finish(failure.userMessage, status: 1)
        default:
            // Argument parsing errors, --help and --version: ArgumentParser prints and exits.
            Journal.exit(withError: error)
        }
    }

    static func status(_ kind: FailureKind) -> Int32 {
        switch kind {
        case .usage: return 64
        case .badData: return 65
        case .failure: return 1
        }
    }

    private func finish(_ message: String, status: Int32) -> Never {
        Output.error("journal: " + message)
        Glibc.exit(status)
    }
}

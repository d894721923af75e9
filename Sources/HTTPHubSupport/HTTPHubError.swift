import JournalKit
import JournalSync

/// Why a hub's server reached over HTTPS could not be trusted, each with what to do about it.
public enum HTTPHubError: JournalFailure, ServerRefusal, Equatable {
    case certificateRejected(server: String, reason: String)
    case rootCertificateMissing(path: String)

    public var kind: FailureKind { .setup }

    public var description: String {
        switch self {
        case .certificateRejected(let server, let reason):
            return "the certificate of \(server) was not accepted: \(reason). Nothing was sent. Check the host name, "
                + "and ?sslrootcert=FILE in the URL for a private certificate authority."
        case .rootCertificateMissing(let path):
            return "the certificate to trust, \(path), is missing: verifying the server needs it (?sslrootcert=FILE)."
        }
    }
}

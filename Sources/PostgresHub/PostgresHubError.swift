import JournalKit
import JournalSync

/// Why a PostgreSQL hub refused or could not be reached, each with what to do about it. Never holds
/// the password: the server's own messages name the role at most.
public enum PostgresHubError: JournalFailure, ServerRefusal, Equatable {
    case badConnectionString(String)
    case passwordInConnectionString
    /// `channel_binding=require`: the driver signs in with SCRAM-SHA-256, never SCRAM-SHA-256-PLUS.
    case channelBindingUnsupported
    /// The server wants a password and none was found (and none could be asked for).
    case passwordRequired(user: String, server: String, looked: [String])
    /// The server refused the password; `source` is where it came from.
    case wrongPassword(user: String, server: String, source: String)
    case noSuchDatabase(database: String, server: String)
    /// `why` says what asked for TLS: the journal's rule, or `sslmode` where it was set.
    case tlsNotOffered(server: String, why: String)
    /// `setting` is `sslmode=disable` where it was set (`PostgresLocation.sslModeSetting`).
    case tlsRequiredByServer(server: String, reason: String, setting: String)
    case certificateRejected(server: String, reason: String)
    /// `verify-full`: the certificate is signed by an authority trusted here but names other hosts;
    /// `names` says which ("DNS:db.example.org, IP:10.0.0.5").
    case certificateNotForHost(server: String, host: String, names: String)
    case rootCertificateMissing(path: String)
    /// The client certificate (`sslcert`, `sslkey`) cannot be used: missing, not PEM, encrypted.
    case clientCertificateUnusable(path: String, reason: String)
    /// The role lacks a right it needs: "CREATE on database journal".
    case missingRight(user: String, right: String, grant: String)
    case noHub(database: String, server: String)
    /// Another machine made a hub in this database while this one was making its own.
    case madeMeanwhile(database: String, server: String)
    case refusedByServer(server: String, message: String)
    /// The hub's schema on the server is of a version this journal does not know.
    case schemaTooNew(server: String, version: Int64, supported: Int64)
    /// The schema is older than this journal's and belongs to a role the journal's is not.
    case migrationNeedsOwner(server: String, database: String, version: Int64, latest: Int64, owner: String)

    public var kind: FailureKind {
        switch self {
        case .badConnectionString, .passwordInConnectionString, .noHub: return .usage
        case .channelBindingUnsupported, .passwordRequired, .wrongPassword, .noSuchDatabase, .tlsNotOffered, .tlsRequiredByServer,
            .certificateRejected, .certificateNotForHost, .rootCertificateMissing, .clientCertificateUnusable, .missingRight,
            .migrationNeedsOwner:
            return .setup
        case .madeMeanwhile, .refusedByServer: return .failure
        case .schemaTooNew: return .badData
        }
    }

    public var description: String {
        switch self {
        case .badConnectionString(let problem):
            return "the PostgreSQL connection string cannot be used: \(problem). It is libpq's: "
                + "postgresql://USER@HOST:PORT/DATABASE?sslmode=verify-full, or host=HOST dbname=DATABASE."
        case .passwordInConnectionString:
            return "the connection string holds a password; it would be kept in the journal and shown in messages. "
                + "Leave it out."
        case .passwordRequired(let user, let server, let looked):
            return "the server \(server) asks a password for \(user), and none was found (looked in "
                + "\(looked.joined(separator: ", ")))."
        case .wrongPassword(let user, let server, let source):
            return "the server \(server) refused the password for \(user) (from \(source)). Correct it there; nothing was written."
        case .noSuchDatabase(let database, let server):
            return "the server \(server) has no database \"\(database)\". Make it (createdb \(database)), or name "
                + "another in the connection string."
        case .channelBindingUnsupported:
            return "channel_binding=require cannot be met: journal signs in with SCRAM-SHA-256, without channel binding "
                + "(SCRAM-SHA-256-PLUS). Use channel_binding=prefer, or leave it out; with sslmode=verify-full the "
                + "certificate check already ties the connection to the server."
        case .tlsNotOffered(let server, let why):
            return "the server \(server) does not offer TLS, and this connection requires it (\(why)). Turn on "
                + "ssl in the server's postgresql.conf. Nothing was sent."
        case .tlsRequiredByServer(let server, let reason, let setting):
            return "the server \(server) accepts only TLS connections (\(reason)), and \(setting) turns TLS off: "
                + "take it away."
        case .certificateRejected(let server, let reason):
            return "the certificate of \(server) was not accepted: \(reason). Nothing was sent. Check the host name "
                + "and sslrootcert in the connection string."
        case .certificateNotForHost(let server, let host, let names):
            return "the certificate of \(server) is not for \(host): it names \(names). sslmode=verify-full takes a "
                + "host name only from the certificate's DNS names, an IP address only from its IP addresses. Nothing was "
                + "sent. Connect by a name the certificate has, or have its certificate made for \(host)."
        case .rootCertificateMissing(let path):
            return "the certificate to trust, \(path), is missing: verifying the server needs it (sslrootcert=FILE, "
                + "or sslrootcert=system for the system's)."
        case .clientCertificateUnusable(let path, let reason):
            return "the client certificate \(path) cannot be used: \(reason). Name a PEM certificate and its "
                + "unencrypted key with sslcert=FILE and sslkey=FILE, or leave both out."
        case .missingRight(let user, let right, let grant):
            return "the role \(user) lacks \(right), which the hub needs. A database administrator can grant it: \(grant)"
        case .noHub(let database, let server):
            return "there is no hub in the database \"\(database)\" on \(server), and a key was given to join one, so "
                + "nothing was made. Check the database name; to start a new hub there instead, join without a key."
        case .madeMeanwhile(let database, let server):
            return "another machine made a hub in \"\(database)\" on \(server) while this one was making its own; "
                + "nothing of this one was kept."
        case .refusedByServer(let server, let message):
            return "the server \(server) refused: \(message)"
        case .schemaTooNew(let server, let version, let supported):
            return "the hub's schema journal_hub on \(server) was written by a newer journal (schema version \(version); this one "
                + "knows up to \(supported)). Update journal on this machine. Nothing was written."
        case .migrationNeedsOwner(let server, let database, let version, let latest, let owner):
            return "the hub's schema journal_hub on \(server) is at version \(version), this journal needs \(latest), and only its owner, "
                + "the role \(owner), may change it. Nothing was written. `journal sync migrate-sql` prints the SQL for a database "
                + "administrator to run in \(database); syncing resumes once it has run."
        }
    }

    public var remedy: Remedy? {
        switch self {
        case .noHub, .madeMeanwhile: return .joinWithKey
        case .passwordInConnectionString, .passwordRequired: return .givePassword(orElse: "add a line HOST:PORT:DATABASE:USER:PASSWORD to ~/.pgpass (mode 0600)")
        default: return nil
        }
    }
}

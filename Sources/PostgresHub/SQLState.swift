import JournalSync
import PostgresNIO

/// A PostgreSQL server's SQLSTATE (Appendix A of its manual): what a refusal is told by, by name.
struct SQLState: RawRepresentable, Hashable, Sendable {
    let rawValue: String

    init(rawValue: String) { self.rawValue = rawValue }

    /// The state the server sent with `error`, if it sent one.
    init?(_ error: PSQLError) {
        guard let state = error.serverInfo?[.sqlState] else { return nil }
        self.init(rawValue: state)
    }

    /// A row's key is taken: a segment, record or card of that name is there already.
    static let uniqueViolation = SQLState(rawValue: "23505")
    /// Class 28: the server refused who connects.
    static let invalidAuthorization = SQLState(rawValue: "28000")
    static let invalidPassword = SQLState(rawValue: "28P01")
    /// The database named is not on the server.
    static let invalidCatalogName = SQLState(rawValue: "3D000")
    /// The server has no connection left.
    static let tooManyConnections = SQLState(rawValue: "53300")

    /// Class 28, any refusal of who connects.
    var isAuthorizationRefused: Bool { rawValue.hasPrefix("28") }
    /// The server shutting down or restarting, at its administrator's word or after a crash
    /// (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now, and the like).
    var isServerGoingAway: Bool { rawValue.hasPrefix("57P") }

    /// The code a `HubFailure` carries.
    var transportCode: TransportCode { .sqlState(rawValue) }
}

/// How long one call to a hub's server may go without a word from it before the server is taken for
/// one that stopped answering: what a command does with the hub decides it.
public enum CallLimit: Sendable {
    /// 120 s: generous for a first sync's large reads over a slow line, short enough that a server that
    /// stopped answering fails the sync instead of stalling it.
    case syncing
    /// The connection string's `connect_timeout`, as for opening the connection (never more than a
    /// sync's limit): for a look at the hub (`journal sync status`), whose reads are small and which must
    /// answer soon when the server stalls.
    case connectTimeout

    /// The limit in seconds, for a server at `location`.
    func seconds(at location: PostgresLocation) -> Int {
        let syncing = 120
        return switch self {
        case .syncing: syncing
        case .connectTimeout: min(location.connectTimeout, syncing)
        }
    }
}

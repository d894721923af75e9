import JournalKit
import JournalSync
import Logging
import Synchronization

/// A hub's doorbell (a PostgreSQL hub's LISTEN on its channel): sends `.hub` when another device
/// published. What rang while it was not listening (a dropped connection, a server restart) is covered
/// by a sync each time it starts listening, and by the periodic sync; reconnecting backs off, and a
/// server restart never ends the daemon.
struct ServerDoorbell: Sendable {
    /// Listens until cancelled (returns) or the connection is lost (throws): `HubChanges.notifications`.
    typealias Listen = @Sendable (_ listening: @escaping @Sendable () -> Void, _ rang: @escaping @Sendable () -> Void) async throws -> Void

    let listen: Listen
    let logger: Logger

    /// Reconnects are tried sooner than failed syncs: the doorbell is what makes sync quick.
    static let longestWait: Duration = .seconds(60)

    func feed(_ events: ChangeEvents) async {
        var backoff = Backoff(maximum: Self.longestWait)
        var random = SystemRandomNumberGenerator()
        while !Task.isCancelled {
            let listened = Listened()
            let reconnecting = backoff.failures > 0
            do {
                try await listen({
                    listened.mark()
                    if reconnecting { logger.info("listening to the hub again; syncing what it may have rung for meanwhile") }
                    events.send(.hub)
                }, { events.send(.hub) })
                return
            } catch {
                guard !Task.isCancelled else { return }
                if listened.happened { backoff.succeed() }
                let delay = backoff.fail(using: &random)
                logger.warning("not listening to the hub: \(failureMessage(error)) Trying again in \(delay.spoken).")
                do { try await EventLoopClock().sleep(for: delay) } catch { return }
            }
        }
    }

    /// Whether a connection got as far as listening: a connection that listened for a while and then
    /// dropped starts the backoff afresh.
    private final class Listened: Sendable {
        private let flag = Mutex(false)
        func mark() { flag.withLock { $0 = true } }
        var happened: Bool { flag.withLock { $0 } }
    }
}

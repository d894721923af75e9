import JournalKit
import JournalSync
import Logging
import Synchronization

/// A hub's doorbell (a server's notifications, or the daemon's own looks at a hub that cannot push,
/// `HubPolling`): sends `.hub` when another device published. What rang while it was not listening (a dropped connection, a server restart) is covered
/// by a sync each time it starts listening, and by the periodic sync; reconnecting backs off, and a
/// server restart never ends the daemon.
struct ServerDoorbell: Sendable {
    /// Listens until cancelled (returns) or the connection is lost (throws): `HubChanges.notifications`.
    typealias Listen = @Sendable (_ sign: @escaping @Sendable (DoorbellSign) -> Void) async throws -> Void

    let listen: Listen
    let logger: Logger
    /// Times the waits between reconnects.
    var clock: any Clock<Duration> = EventLoopClock()
    /// The schedule of a hub the daemon looks at (`HubPolling`); nil for one that rings.
    var polled: PollSchedule?

    /// Reconnects are tried sooner than failed syncs: the doorbell is what makes sync quick. A server
    /// out of reach (down, restarting, a network gone) is tried every second or two, so that its
    /// return is noticed at once; one that refuses (a password, a right) less and less often.
    static let longestWait: Duration = .seconds(60)
    static let longestWaitForAServerOutOfReach: Duration = .seconds(2)

    /// What a doorbell whose test ring does not come back means, for the log.
    static let unheard = "notifications do not arrive (a pooler in transaction mode between this machine and the server?):"

    func feed(_ events: ChangeEvents) async {
        var refused = Backoff(maximum: Self.longestWait)
        // A polled hub's failed look is a request to a server that may be struggling: not sooner than
        // an active hub's next look would be.
        var unreachable = polled.map { Backoff(initial: $0.active, maximum: Self.longestWait) }
            ?? Backoff(initial: .milliseconds(500), maximum: Self.longestWaitForAServerOutOfReach)
        var random = SystemRandomNumberGenerator()
        var failures = RepeatedLine()
        // The log said the doorbell is not listening, and has not said since that it listens again:
        // its return is news, however many failures after the first went unsaid as repeats.
        var downSaid = false
        let everListened = Flag()
        let unheardSaid = Flag()
        while !Task.isCancelled {
            let listened = Flag()
            let sayListening = downSaid
            do {
                try await listen { sign in
                    take(sign, saying: Said(listened: listened, again: sayListening, everListened: everListened, unheard: unheardSaid), to: events)
                }
                return
            } catch {
                guard !Task.isCancelled else { return }
                if listened.happened {
                    refused.succeed()
                    unreachable.succeed()
                    downSaid = false
                }
                let outOfReach = error.hubCondition == .unreachable
                let backedOff = outOfReach ? unreachable.fail(using: &random) : refused.fail(using: &random)
                // A server that limits its clients (429, 503 with Retry-After) is not asked again sooner.
                let delay = max(backedOff, error.hubRetryAfter ?? .zero)
                // A cause that comes back at every reconnect (idle_session_timeout) is said once an hour.
                // A server out of reach is one cause, whichever words the lost connection comes with this time.
                let line = failures.line(
                    "not listening to the hub: \(failureMessage(error))", cause: outOfReach ? "out of reach" : failureMessage(error))
                if let line {
                    downSaid = true
                    logger.warning("\(line) Trying again in \(delay.spoken).")
                }
                do { try await clock.sleep(for: delay) } catch { return }
            }
        }
    }

    /// What the doorbell said so far, for what a sign is to say: whether this connection listened,
    /// whether it listens again after it said it did not, whether it ever listened, whether a silence
    /// of notifications was said.
    private struct Said {
        let listened: Flag
        let again: Bool
        let everListened: Flag
        let unheard: Flag
    }

    /// Says `sign` in the log where it is news, and wakes the loop for it.
    private func take(_ sign: DoorbellSign, saying said: Said, to events: ChangeEvents) {
        var rang = RangLogs.unnamedRing
        switch sign {
        case .listening:
            let first = said.everListened.mark()
            said.listened.mark()
            if said.again {
                logger.info("listening to the hub again; syncing what it may have rung for meanwhile")
            } else if first {
                logger.info(
                    polled != nil
                        ? "looking at the hub: another device's change is synced when a look finds it"
                        : "listening to the hub: another device's change is synced when the server rings")
            }
        case .rang(let device):
            if let device { rang = .log(device) }
        case .unheard(let interval):
            // Said when it starts, not at every poll.
            if said.unheard.mark() {
                logger.warning("\(Self.unheard) syncing every \(interval.spoken) until they do")
            }
        case .heardAgain:
            said.unheard.clear()
            logger.info("notifications arrive again: syncing when the server rings")
        }
        events.send(.hub, rang: rang)
    }

    /// A flag set from the doorbell's callbacks: whether a connection got as far as listening (one
    /// that listened for a while and then dropped starts the backoff afresh), whether a silence was said.
    private final class Flag: Sendable {
        private let flag = Mutex(false)
        /// Sets the flag; true when it was not set.
        @discardableResult func mark() -> Bool { flag.withLock { was in defer { was = true }; return !was } }
        func clear() { flag.withLock { $0 = false } }
        var happened: Bool { flag.withLock { $0 } }
    }
}

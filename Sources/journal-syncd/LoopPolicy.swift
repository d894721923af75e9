import JournalKit
import JournalSync

/// The sync loop's decisions as a value: what the loop saw goes in, what to do comes out. It holds no
/// clock, no task and no file, so each rule is tested on its own; `SyncLoop` carries the decisions out.
struct LoopPolicy {
    /// The journal's `data_version` when the loop last looked. Another process's commit changes it;
    /// this daemon's own writes do not, so it tells a real change from the daemon's own echo.
    private(set) var dataVersion: Int64
    private var backoff = Backoff()
    /// After a failure a retry is scheduled; until it comes, only an explicit request syncs, or, when
    /// the hub could not be reached, evidence that it is back.
    private(set) var retryPending = false
    /// The last failure was the hub out of reach: a sign of the hub (a doorbell that rings or listens
    /// again after a reconnect, a file appearing in its folder) ends the wait for the retry.
    private(set) var waitingForHub = false
    /// A second look at `data_version` is scheduled.
    private(set) var recheckPending = false

    /// The hub in use is polled (`HubChanges.polls`): its looks see every change there, so a tick
    /// syncs only what the journal's watcher might have missed, and the housekeeping.
    var hubPolled = false
    /// When the last whole sync succeeded, in the loop's time (from its start): the one that writes
    /// this device's card, which a log-only sync does not.
    private(set) var lastWholeSync: Duration?

    init(dataVersion: Int64) { self.dataVersion = dataVersion }

    /// How often a daemon on a polled hub syncs with nothing changed: often enough that its card
    /// tells the other devices it is alive (a device is called silent after a day), seldom enough
    /// that a quiet hub costs its looks and little more (a sync is about 6 requests on WebDAV).
    static let polledHousekeeping: Duration = .seconds(6 * 3600)

    /// How long after its start, or its last sync, the daemon lets go of its code pages: a burst of
    /// changes (a few drinks logged, an import, the tick's sync) is over well within it, so a burst
    /// brings the code back once, and an idle daemon holds only what idling needs.
    static let quietAfter: Duration = .seconds(10)

    /// What to do with one element of the event stream.
    struct Plan: Equatable {
        var sync = false
        /// What the sync reads, when there is one.
        var scope = SyncScope.whole
        /// Look at `data_version` again shortly: a write event can come before the commit's last write.
        var scheduleRecheck = false
        /// Tell systemd's watchdog the loop is alive.
        var pingWatchdog = false
        /// Let go of the code pages the last syncs brought back: the daemon has been quiet a while, and
        /// syncs nothing now.
        var releaseCodePages = false
    }

    /// What to do after a sync.
    enum Next: Equatable {
        /// Nothing: a retry scheduled earlier is no longer needed.
        case settled
        /// Try again after the delay; meanwhile only a request syncs.
        case retry(after: Duration)
        /// The journal is not joined to a hub: drop the engine and wait for `journal sync init`.
        case waitForJoin
        /// The daemon cannot go on with this journal as opened: exit so that systemd starts it afresh.
        case exit(SyncLoopExit)
        /// Shutting down: the sync stopped after the segment in flight.
        case stop
    }

    /// True when deciding about `reasons` needs `data_version`: a database hint does, alone (whether to
    /// sync at all) or with others (whether the sync has anything of this journal's to publish).
    func needsDataVersion(_ reasons: ChangeReasons) -> Bool {
        !reasons.isDisjoint(with: hubPolled ? [.database, .recheck, .tick] : [.database, .recheck])
    }

    /// What a sync for `reasons` reads: only the logs the hub's rings named, when rings are all that
    /// woke the loop; everything for any other reason (the journal changed, so there is something to
    /// publish; the tick, a request, a retry, the start: a look at the whole hub), and for a ring that
    /// named no log.
    static func scope(_ reasons: ChangeReasons, rang: RangLogs) -> SyncScope {
        reasons.subtracting(.housekeeping) == .hub ? rang.scope : .whole
    }

    /// The plan for `reasons` and the logs their rings named, given `data_version` as read now (nil
    /// when it could not be read, or was not needed), and whether another process was writing as it
    /// was read (`JournalStore.dataVersionReading`), at `now` in the loop's time (nil: not known).
    mutating func plan(
        _ reasons: ChangeReasons, rang: RangLogs = RangLogs(), dataVersion observed: Int64?, anotherProcessWasWriting: Bool = false,
        at now: Duration? = nil
    ) -> Plan {
        var plan = Plan(pingWatchdog: reasons.contains(.watchdog))
        if reasons.contains(.recheck) { recheckPending = false }
        if reasons.contains(.retry) { retryPending = false }
        // The reasons that stand: a database hint that `data_version` does not confirm is the daemon's
        // own write (its echo), or, while another process writes, its commit still on its way, which
        // the recheck looks for. An echo costs no recheck: another process's commit holds the write
        // lock from its first write until it shows in `data_version`.
        var standing = reasons.subtracting(.housekeeping)
        if needsDataVersion(reasons) {
            // Unreadable counts as changed: a needless sync is cheap, a missed one is not.
            let version = observed ?? dataVersion &+ 1
            if version == dataVersion {
                standing.subtract([.database, .recheck])
                // A polled hub's tick: the looks cover the hub, and nothing changed here.
                if hubPolled, !housekeepingDue(at: now) { standing.remove(.tick) }
                if reasons.contains(.database), anotherProcessWasWriting, !recheckPending {
                    recheckPending = true
                    plan.scheduleRecheck = true
                }
            } else {
                dataVersion = version
            }
        }
        // A sync that ends a wait for the hub looks at all of it: what rang meanwhile is unknown.
        plan.scope = retryPending ? .whole : Self.scope(standing, rang: rang)
        var wanted = !standing.isEmpty
        if retryPending, !reasons.contains(.request), !(waitingForHub && reasons.contains(.hub)) { wanted = false }
        plan.sync = wanted
        plan.releaseCodePages = reasons.contains(.quiet) && !wanted
        return plan
    }

    /// True when a polled hub's tick is to sync for the card: no whole sync since `polledHousekeeping`.
    private func housekeepingDue(at now: Duration?) -> Bool {
        guard let now, let lastWholeSync else { return true }
        return now - lastWholeSync >= Self.polledHousekeeping
    }

    /// Takes `data_version` just before a whole sync: a commit by another process during the sync still
    /// changes it afterwards, so that commit's event is not taken for the sync's own echo. A log-only
    /// sync publishes nothing: a commit it started after is still to be published, so the version the
    /// loop last published from stands.
    mutating func syncStarts(_ scope: SyncScope, dataVersion observed: Int64?) {
        if scope == .whole, let observed { dataVersion = observed }
    }

    /// A sync of `scope` succeeded at `now`, in the loop's time.
    mutating func synced(_ scope: SyncScope, at now: Duration) {
        if scope == .whole { lastWholeSync = now }
    }

    /// What follows a sync that ended with `result`.
    mutating func next(after result: Result<SyncReport, any Error>, random: inout some RandomNumberGenerator) -> Next {
        switch result {
        case .success:
            backoff.succeed()
            retryPending = false
            waitingForHub = false
            return .settled
        case .failure(let error):
            if error is CancellationError { return .stop }
            switch (error as? SyncError)?.journalStanding {
            case .deviceIdentityChanged: return .exit(.deviceIdentityChanged)
            case .notJoined: return .waitForJoin
            case nil: break
            }
            // A newer journal migrated the file: let systemd start the new daemon.
            if let error = error as? JournalFileError, case .newerSchema = error { return .exit(.journalUpgraded(error.description)) }
            // A setup to change on this machine (a key others can read, a read-only journal): retrying
            // cannot help. A server's refusal is put right on the server: retrying finds out when.
            if failureKind(error) == .setup, !(error is any ServerRefusal) { return .exit(.setupFailure(failureMessage(error))) }
            retryPending = true
            waitingForHub = error.hubCondition == .unreachable
            // A server that asked to be left alone for a while is: its own word outlasts the backoff.
            return .retry(after: max(backoff.fail(using: &random), error.hubRetryAfter ?? .zero))
        }
    }

    /// True when the loop must make its engine anew: it has none, or the journal joined another hub,
    /// or the same hub at another place.
    static func needsEngine(current: (id: HubID, location: String)?, joined: HubRecord?) -> Bool {
        guard let current else { return true }
        return joined?.hubID != current.id || joined?.location != current.location
    }
}

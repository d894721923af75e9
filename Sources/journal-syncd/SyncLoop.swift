import CLinux
import JournalKit
import JournalSync
import Logging
import ServiceLifecycle

/// The daemon's heart: one `for await` loop over the change events. Each element is one look at the
/// journal: maybe a sync, then the watchdog ping if one was due. `LoopPolicy` decides; this loop only
/// carries out what it says. Failures back off and never end the loop; it ends when the event stream
/// finishes (graceful shutdown), or when the journal must be opened afresh.
struct SyncLoop<C: Clock> where C.Duration == Duration {
    let store: JournalStore
    let events: ChangeEvents
    let notifier: SystemdNotifier
    let logger: Logger
    let clock: C
    /// The retry and recheck timers, which the service runs.
    let alarms: Alarms<C>
    /// Where the sync runs.
    let executor: any TaskExecutor
    /// The sync under way, for a stop to cancel.
    let inFlight: SyncInFlight
    /// The journal's watcher, which a sync's own writes are hidden from.
    let database: DatabaseWatcher
    /// How often systemd wants a ping, when its watchdog is on: during a long sync, pings go on while
    /// the sync makes progress.
    let watchdogInterval: Duration?
    /// Makes the engine once the journal is joined to a hub (the daemon may start before that).
    let makeEngine: @Sendable (JournalStore) async throws -> SyncEngine
    /// Called with each new engine, and after every sync, to watch its hub.
    let watchHub: @Sendable (SyncEngine) -> Void
    /// Lets go of the code pages (`journal_release_code_pages`; tests count the calls).
    let releaseCodePages: @Sendable () -> Void

    /// Runs until the events end, starting with `engine` when there is one already; the engine in use
    /// last is closed when the loop ends.
    func run(engine first: SyncEngine? = nil) async throws {
        var engine = first
        do {
            try await loop(engine: &engine)
        } catch {
            await engine?.close()
            throw error
        }
        await engine?.close()
    }

    private func loop(engine: inout SyncEngine?) async throws {
        var started = false
        var quiet = QuietTime(at: clock.now)
        var policy = LoopPolicy(dataVersion: (try? await store.dataVersion()) ?? 0)
        policy.hubPolled = engine.map(Self.isPolled) ?? false
        var random = SystemRandomNumberGenerator()
        let start = clock.now
        for await wake in events {
            let reasons = wake.reasons
            // A journal deleted or replaced under the daemon: systemd starts it again on the new file.
            guard store.isStillAtItsPath() else { throw SyncLoopExit.journalReplaced(store.path) }
            let reading = policy.needsDataVersion(reasons) ? try? await store.dataVersionReading() : nil
            let plan = policy.plan(
                reasons, rang: wake.rang, dataVersion: reading?.value, anotherProcessWasWriting: reading?.anotherConnectionWasWriting ?? false,
                at: start.duration(to: clock.now))
            if plan.scheduleRecheck { alarms.ring(.recheck, after: .milliseconds(100)) }
            var synced: SyncReport?
            if plan.sync {
                let result = await attempt(reasons, scope: plan.scope, engine: &engine, policy: &policy)
                if case .success(let report) = result {
                    synced = report
                    policy.synced(plan.scope, at: start.duration(to: clock.now))
                }
                switch policy.next(after: result, random: &random) {
                case .settled:
                    alarms.clear(.retry)
                case .retry(let delay):
                    alarms.set(.retry, after: delay)
                    if case .failure(let error) = result { reportFailure(error, reasons: reasons, retryIn: delay) }
                case .waitForJoin:
                    await engine?.close()
                    engine = nil
                    notifier.status("Waiting for this journal to join a hub (journal sync init)")
                    logger.notice("this journal is not joined to a hub yet; waiting for journal sync init")
                case .exit(let reason):
                    throw reason
                case .stop:
                    logger.info("stopped after the segment in flight")
                    return
                }
            }
            if plan.pingWatchdog { notifier.watchdog() }
            keepQuietTime(&quiet, plan: plan, reasons: reasons, started: started)
            // Said once the loop has settled its times: whoever waits for the word finds them set.
            if let synced { notifier.status("Last sync \(LocalTime.clockTime(store.clock.now())): \(synced.result)") }
            started = true
        }
    }

    /// When the daemon will have been quiet long enough to let go of its code pages, and whether an
    /// alarm is set for then or before: a burst of syncs moves the time, and sets no alarm anew for
    /// each (each was a timer made and one let go); an alarm that comes early is set for the rest.
    struct QuietTime {
        var at: C.Instant
        var alarmSet = false
    }

    /// Lets the code pages go when the quiet time came, or sets the alarm for the rest of it; from the
    /// start, and from each sync's end, the pages go once nothing happened for a while.
    private func keepQuietTime(_ quiet: inout QuietTime, plan: LoopPolicy.Plan, reasons: ChangeReasons, started: Bool) {
        if reasons.contains(.quiet) { quiet.alarmSet = false }
        if plan.releaseCodePages {
            let now = clock.now
            if now < quiet.at {
                alarms.set(.quiet, after: now.duration(to: quiet.at))
                quiet.alarmSet = true
            } else {
                releaseCodePages()
            }
        }
        if plan.sync || !started {
            quiet.at = clock.now.advanced(by: LoopPolicy.quietAfter)
            if !quiet.alarmSet { alarms.set(.quiet, after: LoopPolicy.quietAfter) }
            quiet.alarmSet = true
        }
    }

    /// True when the engine's hub is looked at rather than heard from.
    private static func isPolled(_ engine: SyncEngine) -> Bool {
        engine.hub.changes(ownDevice: engine.store.deviceID, clock: engine.store.clock).isPolled
    }

    /// One sync of `scope`, with the engine made first when the policy says so.
    private func attempt(_ reasons: ChangeReasons, scope: SyncScope, engine: inout SyncEngine?, policy: inout LoopPolicy) async
        -> Result<SyncReport, any Error>
    {
        do {
            let joined = try await store.hub()
            if LoopPolicy.needsEngine(current: engine.map { ($0.hub.id, $0.hub.location) }, joined: joined) {
                await engine?.close()
                engine = nil
                do { engine = try await makeEngine(store) } catch {
                    // Not reaching the hub is an attempt too: `sync status` says it, not the last success.
                    try? await SyncSetup.recordFailure(error, of: store)
                    throw error
                }
                if let engine {
                    policy.hubPolled = Self.isPolled(engine)
                    watchHub(engine)
                }
            }
            guard let engine else { throw SyncError.notJoined }
            policy.syncStarts(scope, dataVersion: try? await store.dataVersion())
            let report = try await database.ignoringWrites(sendingTo: events) { try await sync(engine, scope: scope) }
            // A log-only read found no new folder: a device joining rings the devices folder, a whole sync.
            if scope == .whole { watchHub(engine) }
            log(report, reasons: reasons)
            return .success(report)
        } catch {
            return .failure(error)
        }
    }

    private func log(_ report: SyncReport, reasons: ChangeReasons) {
        for failure in report.failures { logger.error("\(failure.description); it is retried on every sync") }
        for refused in report.refused { logger.warning("\(refused.description)") }
        for sentence in SyncReport.setAsideSentences(report.setAside) { logger.warning("\(sentence)") }
        let result = report.result
        if report.movedAnything || !report.failures.isEmpty {
            logger.info("synced (\(reasons)): \(result)")
        } else {
            logger.debug("synced (\(reasons)): nothing to do")
        }
    }

    private func reportFailure(_ error: any Error, reasons: ChangeReasons, retryIn delay: Duration) {
        let message = failureMessage(error)
        logger.error("sync failed (\(reasons)): \(message) Retrying in \(delay.spoken).")
        notifier.status("Sync failed at \(LocalTime.clockTime(store.clock.now())): \(message) Retrying in \(delay.spoken).")
    }

    /// One sync, cancelled (it then stops after the segment in flight) when graceful shutdown begins,
    /// with the watchdog fed, by a child task, while it makes progress. The sync is a task the loop
    /// awaits at once and cancels with itself: graceful shutdown must cancel the sync alone, not the
    /// loop, and its handler cannot reach a task group. Not service-lifecycle's
    /// `cancelWhenGracefulShutdown`: that leaves an unstructured task on Swift's global executor after
    /// every call, which starts libdispatch's once-a-second monitor.
    private func sync(_ engine: SyncEngine, scope: SyncScope) async throws -> SyncReport {
        let progress = SyncProgress()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            if let watchdogInterval { group.addTask { await feedWatchdog(every: watchdogInterval, while: progress) } }
            defer { group.cancelAll() }
            let sync = inFlight.start({ try await engine.syncRecordingResult(scope, progress: progress) }, on: executor)
            return try await withGracefulShutdownHandler {
                try await withTaskCancellationHandler {
                    try await sync.value
                } onCancel: {
                    sync.cancel()
                }
            } onGracefulShutdown: {
                inFlight.stop()
            }
        }
    }

    /// Pings the watchdog every `interval` for as long as the sync takes steps: a sync that is slow but
    /// moving (a first sync over NFS) is not killed, and one that is stuck is.
    private func feedWatchdog(every interval: Duration, while progress: SyncProgress) async {
        var seen = progress.steps
        while !Task.isCancelled {
            do { try await clock.sleep(for: interval) } catch { return }
            let now = progress.steps
            if now != seen { notifier.watchdog() }
            seen = now
        }
    }
}

/// Why the loop stopped on its own: the daemon exits 1 so that systemd starts it again, or 78 for a
/// setup that a restart cannot fix (the unit's RestartPreventExitStatus).
enum SyncLoopExit: JournalFailure, Equatable {
    /// `journal sync new-device` gave the journal a new identity; the daemon must reopen it.
    case deviceIdentityChanged
    /// The file's schema is newer than this daemon's: it was upgraded, and must be restarted.
    case journalUpgraded(String)
    /// The journal's file was deleted or replaced since the daemon opened it.
    case journalReplaced(String)
    /// A failure of the setup kind, in its own words.
    case setupFailure(String)

    var kind: FailureKind {
        if case .setupFailure = self { return .setup }
        return .failure
    }

    var description: String {
        switch self {
        case .deviceIdentityChanged: return "this journal was given a new device id; exiting to be started on it."
        case .journalUpgraded(let reason): return "\(reason) Exiting so that the new journal-syncd starts."
        case .journalReplaced(let path):
            return "\(path) was deleted or replaced since this daemon opened it; exiting to be started on the file there now."
        case .setupFailure(let message): return "\(message) Retrying cannot help; exiting until this is put right."
        }
    }
}

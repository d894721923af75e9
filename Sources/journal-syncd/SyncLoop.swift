import JournalKit
import JournalSync
import Logging
import ServiceLifecycle

/// The daemon's heart: one `for await` loop over the change events. Each element is one look at the
/// journal: maybe a sync, then the watchdog ping if one was due. Failures back off and never end the
/// loop; it ends only when the event stream finishes (graceful shutdown).
struct SyncLoop<C: Clock> where C.Duration == Duration {
    let store: JournalStore
    let events: ChangeEvents
    let notifier: SystemdNotifier
    let logger: Logger
    let clock: C
    /// Makes the engine once the journal is joined to a hub (the daemon may start before that).
    let makeEngine: @Sendable (JournalStore) async throws -> SyncEngine
    /// Called with each new engine, to watch its hub.
    let watchHub: @Sendable (SyncEngine) -> Void

    func run() async throws {
        var engine: SyncEngine?
        var backoff = Backoff()
        var random = SystemRandomNumberGenerator()
        var retry: Task<Void, Never>?
        var recheck: Task<Void, Never>?
        var lastDataVersion = (try? await store.dataVersion()) ?? 0
        defer {
            retry?.cancel()
            recheck?.cancel()
        }

        for await reasons in events {
            if reasons.contains(.recheck) { recheck = nil }
            var wanted = reasons.wantsSync
            if reasons.subtracting([.database, .recheck, .watchdog]).isEmpty, wanted {
                // A write event is a hint; data_version says whether another process really committed.
                // When it cannot be read, assume it did: a needless sync is cheap, a missed one is not.
                let version = (try? await store.dataVersion()) ?? lastDataVersion &+ 1
                if version == lastDataVersion {
                    wanted = false
                    // The event may have come before the commit's last write; look once more shortly.
                    if reasons.contains(.database), recheck == nil {
                        recheck = after(.milliseconds(100), send: .recheck)
                    }
                } else {
                    lastDataVersion = version
                }
            }
            if reasons.contains(.retry) { retry = nil }
            // While backing off, only the retry or an explicit request syncs.
            if retry != nil, !reasons.contains(.request) { wanted = false }

            if wanted {
                do {
                    // Re-made when the journal joined another hub, or the same hub at another place.
                    let joined = try await store.hub()
                    if engine == nil || joined?.hubID != engine?.hub.id || joined?.location != engine?.hub.location {
                        engine = try await makeEngine(store)
                        if let engine { watchHub(engine) }
                    }
                    guard let engine else { continue }
                    // Read before the sync: a commit by another process during the sync must still
                    // change it afterwards, so its queued event is not taken for this sync's echo.
                    lastDataVersion = (try? await store.dataVersion()) ?? lastDataVersion
                    let report = try await Self.syncStoppingOnShutdown(engine)
                    backoff.succeed()
                    retry?.cancel()
                    retry = nil
                    watchHub(engine)
                    await record(report, reasons: reasons, engine: engine)
                } catch is CancellationError {
                    logger.info("stopping after the segment in flight")
                } catch SyncError.deviceIdentityChanged {
                    throw SyncLoopExit.deviceIdentityChanged
                } catch let error as JournalFileError {
                    // A newer journal migrated the file: let systemd start the new daemon.
                    throw SyncLoopExit.journalUpgraded(error.description)
                } catch SyncError.notJoined {
                    engine = nil
                    notifier.status("Waiting for this journal to join a hub (journal sync init)")
                    logger.notice("this journal is not joined to a hub yet; waiting for journal sync init")
                } catch {
                    let delay = backoff.fail(using: &random)
                    retry?.cancel()
                    retry = after(delay, send: .retry)
                    let message = failureMessage(error)
                    logger.error("sync failed (\(reasons)): \(message); retrying in \(delay.spoken)")
                    notifier.status("Sync failed at \(LocalTime.clockTime(store.clock.now())): \(message) Retrying in \(delay.spoken).")
                    if let engine { try? await store.recordSyncResult("failed: \(message)", at: store.clock.now(), hubID: engine.hub.id) }
                }
            }
            if reasons.contains(.watchdog) { notifier.watchdog() }
        }
    }

    private func record(_ report: SyncReport, reasons: ChangeReasons, engine: SyncEngine) async {
        var result = report.summary
        for failure in report.failures {
            logger.error("\(failure.description); it is retried on every sync")
        }
        if !report.failures.isEmpty { result += " \(report.failures.count) segment(s) could not be applied." }
        if report.movedAnything || !report.failures.isEmpty {
            logger.info("synced (\(reasons)): \(result)")
        } else {
            logger.debug("synced (\(reasons)): nothing to do")
        }
        notifier.status("Last sync \(LocalTime.clockTime(store.clock.now())): \(result)")
        do {
            try await store.recordSyncResult(result, at: store.clock.now(), hubID: engine.hub.id)
        } catch {
            logger.warning("could not record the sync's result in the journal: \(failureMessage(error))")
        }
    }

    /// One sync, cancelled (it then stops after the segment in flight) when graceful shutdown begins.
    /// Not service-lifecycle's `cancelWhenGracefulShutdown`: that leaves an unstructured task on
    /// Swift's global executor after every call, which starts libdispatch's once-a-second monitor.
    private static func syncStoppingOnShutdown(_ engine: SyncEngine) async throws -> SyncReport {
        let sync = Task(executorPreference: SyncDaemon.loopExecutor) { try await engine.sync() }
        return try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await sync.value
            } onCancel: {
                sync.cancel()
            }
        } onGracefulShutdown: {
            sync.cancel()
        }
    }

    /// A task, owned by the loop, that sends `reason` after `delay`.
    private func after(_ delay: Duration, send reason: ChangeReasons) -> Task<Void, Never> {
        let events = self.events
        let clock = self.clock
        return Task(executorPreference: SyncDaemon.loopExecutor) {
            guard !Task.isCancelled else { return }
            do { try await clock.sleep(for: delay) } catch { return }
            events.send(reason)
        }
    }
}

/// Why the loop stopped on its own: the daemon exits 1 so that systemd starts it again.
enum SyncLoopExit: JournalFailure {
    /// `journal sync new-device` gave the journal a new identity; the daemon must reopen it.
    case deviceIdentityChanged
    /// The file's schema is newer than this daemon's: it was upgraded, and must be restarted.
    case journalUpgraded(String)

    var kind: FailureKind { .failure }

    var description: String {
        switch self {
        case .deviceIdentityChanged: return "this journal was given a new device id; exiting to be started on it."
        case .journalUpgraded(let reason): return "\(reason) Exiting so that the new journal-syncd starts."
        }
    }
}

extension Duration {
    /// "8 s", "4 min": for logs and status lines.
    var spoken: String {
        let seconds = components.seconds
        return seconds >= 120 ? "\(seconds / 60) min" : "\(seconds) s"
    }
}

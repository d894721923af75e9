import CLinux
import JournalKit
import JournalSync
import Logging
import ServiceLifecycle

/// The daemon as a service of swift-service-lifecycle: arms the watchers, says READY, runs the sync
/// loop, and on SIGTERM or SIGINT says STOPPING and lets the loop finish what is in flight. Every task
/// it starts is a child of its task group (the journal's watcher, the tickers, the hub's watchers, the
/// loop's alarms) and is cancelled when the loop ends; cancelling a watcher's task ends its stream,
/// which closes its inotify descriptor. Every wait is on `clock` (the watchdog's on `watchdogClock`),
/// which tests replace with one they move by hand.
struct SyncService<C: Clock>: Service, CustomStringConvertible where C.Duration == Duration {
    let store: JournalStore
    let interval: Duration
    let watchdogInterval: Duration?
    let notifier: SystemdNotifier
    let logger: Logger
    /// Where every task of the service runs.
    let executor: any TaskExecutor
    /// Times the periodic sync, retries, rechecks, the doorbell's reconnects and the watchdog's feeding.
    let clock: C
    /// Times the watchdog's heartbeat: a clock that does not count a suspended machine, as systemd's
    /// watchdog does not.
    let watchdogClock: C
    /// Lets go of the daemon's code pages once it is quiet; tests count the calls.
    var releaseCodePages: @Sendable () -> Void = { _ = journal_release_code_pages() }
    /// Makes the sync engine for the journal's hub; tests give one over a hub of their own.
    var makeEngine: @Sendable (JournalStore) async throws -> SyncEngine = { try await SyncSetup.engine(for: $0, hubs: .known) }

    var description: String { "journal-syncd(\(store.path))" }

    /// Where the watchers, the ticker, the daemon's signals and the watchdog send what they notice.
    var events = ChangeEvents()
    /// The sync under way, which `stop` cancels.
    private let inFlight = SyncInFlight()

    /// Stops the sync under way after its segment in flight, from any thread, without waiting for the
    /// loop's: the first step of a graceful shutdown, which SIGTERM then triggers.
    func stop() { inFlight.stop() }

    func run() async throws {
        let database = try DatabaseWatcher(databasePath: store.path)
        let hubWatchers = HubWatchers(logger: logger, clock: clock)
        let alarms = Alarms(events: events, clock: clock)
        let loop = SyncLoop(
            store: store, events: events, notifier: notifier, logger: logger, clock: clock, alarms: alarms,
            executor: executor, inFlight: inFlight, database: database, watchdogInterval: watchdogInterval, makeEngine: makeEngine,
            watchHub: { hubWatchers.watch($0, events: events) }, releaseCodePages: releaseCodePages)

        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await database.feed(events) }
                group.addTask { await Ticker(interval: interval, reason: .tick, clock: clock).feed(events) }
                if let watchdogInterval {
                    group.addTask { await Ticker(interval: watchdogInterval, reason: .watchdog, clock: watchdogClock).feed(events) }
                }
                group.addTask { await hubWatchers.run() }
                group.addTask { await alarms.run() }
                // The hub's watcher too is armed before READY, when the journal already has a hub; the
                // loop goes on with the same engine.
                let engine = try? await makeEngine(store)
                if let engine { hubWatchers.watch(engine, events: events) }
                logger.info("watching \(store.path); safety-net sync every \(interval.spoken)")
                notifier.ready()
                events.send(.startup)
                defer {
                    hubWatchers.stop()
                    group.cancelAll()
                }
                try await loop.run(engine: engine)
            }
        } onGracefulShutdown: {
            notifier.stopping()
            events.finish()
        }
        logger.info("stopped")
    }
}

import ArgumentParser
import CommandLineSupport
import EventLoopExecution
import JournalKit
import JournalSync
import Logging
import ServiceLifecycle

import Glibc

@main
struct SyncDaemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal-syncd",
        abstract: "Keeps the journal in sync with its hub, by itself: run by systemd as a user service.",
        discussion: """
            Syncs when another process writes the journal, when another device publishes to the hub, on \
            SIGHUP or SIGUSR1, and every --interval as a safety net. SIGTERM or SIGINT stops it cleanly.
            """,
        version: ProgramVersion.line(for: "journal-syncd"))

    @Option(name: .long, help: ArgumentHelp("The journal database (default: $JOURNAL_DB, else $XDG_DATA_HOME/journal/journal.db).", valueName: "path"))
    var db: String?

    @Option(name: .long, help: "The safety-net sync interval, from 10s to 24h: 5m, 30s, 1h.")
    var interval: IntervalArgument = IntervalArgument(duration: .seconds(300))

    @Option(name: .long, help: "How much it logs, to the journal of systemd or to stderr.")
    var logLevel: Logger.Level = .info

    @Flag(name: .long, help: "Sync once and exit.")
    var once = false

    /// The thread every task of the daemon runs on: its loop, its journal store's SQLite work and its
    /// PostgreSQL hub's connection, an event loop of its own. A ring is then read, synced and written
    /// on one thread: each hand-off between threads was a wake-up, about a hundred futex calls a ring
    /// when the loop, the store and the connection each had a thread. SQLite's waits hold up nothing on
    /// it but the hub's replies, which the sync waits for anyway. Keeping off Swift's global executor
    /// matters for an idle daemon: on Linux, the first task run there starts libdispatch's thread-pool
    /// monitor, which wakes the process every second forever. Out of descriptors for an event loop,
    /// a thread of its own as the store's, and the hub's connection on another.
    static let loopExecutor: any StoreExecutor = EventLoopExecutor.ownThread() ?? SerialThreadExecutor()

    static func main() async {
        // One binary, three programs (as busybox): run as `journal-sync`, it carries out `journal sync
        // ...` for `journal`, and as `journal-import` an Apple Health import.
        switch CommandLine.arguments.first?.split(separator: "/").last.map(String.init) {
        case SyncProgram.name?: await SyncProgram.start()
        case ImportProgram.name?: await ImportProgram.start()
        default: await runAsMain(program: "journal-syncd", executor: loopExecutor)
        }
    }

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { _ in DaemonLogHandler(level: level) }
        let logger = Logger(label: "journal-syncd")
        let path = try JournalPaths.database(explicit: db)
        let store = try await JournalStore(path: path, executor: Self.loopExecutor)
        // Settings an earlier release kept for this machine alone sync from now on; a settings file
        // that cannot be read holds up no sync (commands name its line).
        do {
            if let moved = try await SettingsMove.run(store) { logger.notice("\(moved.sentence)") }
        } catch {
            logger.warning("the settings in config.toml were not moved into the journal: \(failureClause(error))")
        }
        if once {
            // What `journal sync` does, recorded for `sync status` alike; hub file names in the summary
            // come from outside, so escaped.
            let report = try await SyncSetup.syncOnce(store, hubs: .known)
            Output.line(TerminalText.escaped(report.summary))
            if !report.failures.isEmpty { throw SyncError.segmentsFailed(report.failures) }
            return
        }
        guard let presence = try FileLock.daemon(databasePath: path) else {
            throw DaemonError.alreadyRunning(path: path, pid: FileLock.runningDaemon(databasePath: path))
        }
        let service = SyncService(
            store: store, interval: interval.duration, watchdogInterval: SystemdNotifier.watchdogInterval(),
            notifier: SystemdNotifier(), logger: logger, executor: Self.loopExecutor,
            clock: EventLoopClock(), watchdogClock: EventLoopClock(countsSuspend: false))
        let group = ServiceGroup(services: [service], logger: logger)
        // SIGTERM and SIGINT stop the daemon gracefully; SIGHUP and SIGUSR1 ask for a sync now.
        try Signals.watch { signal in
            if signal == SIGTERM || signal == SIGINT {
                // The sync under way is cancelled here, as the loop's thread may be waiting in SQLite
                // for the journal's write lock; the group's shutdown runs there once the sync stops.
                service.stop()
                Task(executorPreference: Self.loopExecutor) { await group.triggerGracefulShutdown() }
            } else {
                // A flood of signals is one request until the loop takes it: said once.
                if service.events.send(.request) { logger.info("sync requested (\(Signals.name(signal)))") }
            }
        }
        try await group.run()
        withExtendedLifetime(presence) {}
    }

}

/// Why the daemon will not start, whatever the number of retries.
enum DaemonError: JournalFailure {
    case alreadyRunning(path: String, pid: Int32?)

    var kind: FailureKind { .setup }

    var description: String {
        switch self {
        case .alreadyRunning(let path, let pid):
            return "another journal-syncd\(pid.map { " (pid \($0))" } ?? "") already syncs \(path); one daemon per journal."
        }
    }
}

/// A duration written as people do: `90` (seconds), `30s`, `5m`, `1h`; from 10 seconds to a day.
struct IntervalArgument: ExpressibleByArgument, Sendable {
    let duration: Duration

    static let allowed: ClosedRange<Int64> = 10...86_400

    init(duration: Duration) { self.duration = duration }

    init?(argument: String) {
        let text = argument.lowercased()
        let digits = text.prefix(while: { $0.isASCII && $0.isNumber })
        guard let value = Int64(digits), value > 0 else { return nil }
        let unit: Int64
        switch text.dropFirst(digits.count) {
        case "", "s", "sec", "secs": unit = 1
        case "m", "min", "mins": unit = 60
        case "h", "hour", "hours": unit = 3600
        default: return nil
        }
        let (seconds, overflow) = value.multipliedReportingOverflow(by: unit)
        guard !overflow, Self.allowed.contains(seconds) else { return nil }
        duration = .seconds(seconds)
    }

    /// How `--help` shows a default: "5m", as one would type it.
    var defaultValueDescription: String {
        let seconds = duration.components.seconds
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

import JournalKit
import JournalSync
import Logging
import Synchronization

/// The hub watcher of the engine in use, started when the journal joins a hub, as the hub says it tells
/// of changes: inotify on its folders (refreshed after every whole sync, for new devices or a hub folder
/// that came back), or its doorbell. A folder's watches are set up where they are asked for (before
/// READY, for the first); a doorbell listens in its child task, the start-up sync covering what rang
/// before. Each is fed by a child task of `run`, itself a child of the service's task group: a watcher
/// replaced, or stopped, ends its child, and the service ending ends them all.
final class HubWatchers: Sendable {
    private struct Current {
        var hubID: HubID
        var location: String
        var watcher: HubWatcher?
        /// Ends the current watcher's child task.
        var stop: ChildTasks.Stop
    }

    private let current = Mutex<Current?>(nil)
    private let tasks = ChildTasks()
    private let logger: Logger
    private let clock: any Clock<Duration>

    init(logger: Logger, clock: any Clock<Duration>) {
        self.logger = logger
        self.clock = clock
    }

    /// Feeds each watcher started until it is stopped, or this task is cancelled.
    func run() async { await tasks.run() }

    func watch(_ engine: SyncEngine, events: ChangeEvents) {
        let hub = engine.hub
        switch hub.changes(ownDevice: engine.store.deviceID, clock: engine.store.clock) {
        case .files(let folders): watchFiles(hub, folders: folders, events: events)
        case .notifications(let listen): ring(hub, listen: listen, events: events)
        case .polls(let poll): ring(hub, listen: Self.polling(poll, clock: clock), polled: poll.schedule, events: events)
        }
    }

    /// Watches a hub's folders with inotify; after each whole sync, the folders that appeared since.
    private func watchFiles(_ hub: any Hub, folders: @escaping @Sendable () -> [WatchedFolder], events: ChangeEvents) {
        // Refreshing lists the hub folder, which can hang on a network file system: not under the lock.
        if let existing = current.withLock({ $0 }), existing.hubID == hub.id, existing.location == hub.location {
            if existing.watcher?.refresh() == true { events.send(.hub) }
            return
        }
        current.withLock { current in
            current?.stop()
            current = nil
            do {
                let watcher = try HubWatcher(folders: folders)
                current = start(hub, watcher: watcher) { await watcher.feed(events) }
            } catch {
                logger.warning("cannot watch the hub (\(error)); the periodic sync still runs")
            }
        }
    }

    /// A polled hub's looks, as a doorbell's listening, on the service's clock.
    private static func polling<Waiting: Clock<Duration>>(_ poll: HubPoll, clock: Waiting) -> ServerDoorbell.Listen {
        let polling = HubPolling(poll: poll, clock: clock)
        return { sign in try await polling.listen(sign) }
    }

    /// Listens to a hub's doorbell, unless it already does.
    private func ring(_ hub: any Hub, listen: @escaping ServerDoorbell.Listen, polled: PollSchedule? = nil, events: ChangeEvents) {
        current.withLock { current in
            if let current, current.hubID == hub.id, current.location == hub.location { return }
            current?.stop()
            let doorbell = ServerDoorbell(listen: listen, logger: logger, clock: clock, polled: polled)
            current = start(hub, watcher: nil) { await doorbell.feed(events) }
        }
    }

    /// Hands `feed` to `run`, with what stops it.
    private func start(_ hub: any Hub, watcher: HubWatcher?, feed: @escaping @Sendable () async -> Void) -> Current {
        Current(hubID: hub.id, location: hub.location, watcher: watcher, stop: tasks.start(feed))
    }

    func stop() {
        current.withLock { current in
            current?.stop()
            current = nil
        }
    }
}

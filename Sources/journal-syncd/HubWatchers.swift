import JournalKit
import JournalSync
import Logging
import Synchronization

/// The hub watcher of the engine in use, started when the journal joins a hub, as the hub says it tells
/// of changes: inotify on its folders (refreshed after every sync, for new devices or a hub folder
/// that came back), or its doorbell. Its feeding task is held here and cancelled on `stop()`.
final class HubWatchers: Sendable {
    private struct Current {
        var hubID: String
        var location: String
        var watcher: HubWatcher?
        var task: Task<Void, Never>
    }

    private let current = Mutex<Current?>(nil)
    private let logger: Logger
    private let executor: SerialThreadExecutor

    init(logger: Logger, executor: SerialThreadExecutor) {
        self.logger = logger
        self.executor = executor
    }

    func watch(_ engine: SyncEngine, events: ChangeEvents) {
        let hub = engine.hub
        switch hub.changes(ownDevice: engine.store.deviceID, clock: engine.store.clock) {
        case .files(let folders): watchFiles(hub, folders: folders, events: events)
        case .notifications(let listen): ring(hub, listen: listen, events: events)
        }
    }

    /// Watches a hub's folders with inotify; after each sync, the folders that appeared since.
    private func watchFiles(_ hub: any Hub, folders: @escaping @Sendable () -> [WatchedFolder], events: ChangeEvents) {
        // Refreshing lists the hub folder, which can hang on a network file system: not under the lock.
        if let existing = current.withLock({ $0 }), existing.hubID == hub.id, existing.location == hub.location {
            if existing.watcher?.refresh() == true { events.send(.hub) }
            return
        }
        current.withLock { current in
            current?.task.cancel()
            do {
                let watcher = try HubWatcher(folders: folders)
                current = Current(
                    hubID: hub.id, location: hub.location, watcher: watcher,
                    task: Task(executorPreference: executor) { await watcher.feed(events) })
            } catch {
                current = nil
                logger.warning("cannot watch the hub (\(error)); the periodic sync still runs")
            }
        }
    }

    /// Listens to a hub's doorbell, unless it already does.
    private func ring(_ hub: any Hub, listen: @escaping ServerDoorbell.Listen, events: ChangeEvents) {
        current.withLock { current in
            if let current, current.hubID == hub.id, current.location == hub.location { return }
            current?.task.cancel()
            let doorbell = ServerDoorbell(listen: listen, logger: logger)
            current = Current(
                hubID: hub.id, location: hub.location, watcher: nil,
                task: Task(executorPreference: executor) { await doorbell.feed(events) })
        }
    }

    func stop() {
        current.withLock { current in
            current?.task.cancel()
            current = nil
        }
    }
}

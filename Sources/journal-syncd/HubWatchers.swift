import JournalKit
import JournalSync
import Logging
import PostgresHub
import Synchronization

/// The hub watcher of the engine in use, started when the journal joins a hub: inotify on a folder
/// hub (refreshed after every sync, for new devices or a hub folder that came back), the doorbell of a
/// PostgreSQL hub. Its feeding task is held here and cancelled on `stop()`.
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
        if let hub = engine.hub as? PostgresHub { return ring(hub, device: engine.store.deviceID, clock: engine.store.clock, events: events) }
        guard let hub = engine.hub as? FolderHub else { return }
        // Refreshing lists the hub folder, which can hang on a network file system: not under the lock.
        if let existing = current.withLock({ $0 }), existing.hubID == hub.id, existing.location == hub.location {
            if existing.watcher?.refresh() == true { events.send(.hub) }
            return
        }
        current.withLock { current in
            current?.task.cancel()
            do {
                let watcher = try HubWatcher(hub: hub, ownDevice: engine.store.deviceID)
                current = Current(
                    hubID: hub.id, location: hub.location, watcher: watcher,
                    task: Task(executorPreference: executor) { await watcher.feed(events) })
            } catch {
                current = nil
                logger.warning("cannot watch the hub (\(error)); the periodic sync still runs")
            }
        }
    }

    /// Listens to a PostgreSQL hub's doorbell, unless it already does.
    private func ring(_ hub: PostgresHub, device: DeviceID, clock: any JournalClock, events: ChangeEvents) {
        current.withLock { current in
            if let current, current.hubID == hub.id, current.location == hub.location { return }
            current?.task.cancel()
            let doorbell = ServerDoorbell(hub: hub, ownDevice: device, clock: clock, logger: logger)
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

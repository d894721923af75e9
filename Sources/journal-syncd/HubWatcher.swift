import JournalKit
import JournalSync
import Synchronization

import Glibc

/// Notices new segments in other devices' logs of a folder hub: inotify on the folders it names (its
/// devices folder, for a device joining, and each other device's folder, for a segment renamed into
/// place by journal or by Syncthing or Dropbox).
final class HubWatcher: Sendable {
    private let inotify: Inotify
    private let folders: @Sendable () -> [WatchedFolder]
    /// Each watch, and the log of the folder it watches (nil: a folder only a whole sync reads).
    private let watched = Mutex<[Int32: DeviceID?]>([:])

    init(folders: @escaping @Sendable () -> [WatchedFolder]) throws(WatcherError) {
        self.folders = folders
        inotify = try Inotify()
        refresh()
    }

    /// Watches every folder the hub names, including ones that appeared (or came back, after the hub
    /// was away) since the last call. Folders that cannot be watched now are tried again on the next
    /// call. True when it started watching a folder it did not watch before: a segment may have landed
    /// there before the watch, so the caller should look once more.
    @discardableResult
    func refresh() -> Bool {
        let mask = IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF
        var added = false
        for folder in folders() {
            // Adding a watch again for the same folder is harmless; it may be a new folder by that name.
            if let watch = try? inotify.watch(folder.path, mask: mask), watched.withLock({ $0.updateValue(folder.log, forKey: watch) == nil }) {
                added = true
            }
        }
        return added
    }

    /// Sends `.hub` to `events` when a segment or a device appears, until cancelled, naming the logs
    /// the files appeared in. Dot-names are other tools' temporaries, not segments yet.
    func feed(_ events: ChangeEvents) async {
        for await batch in inotify.events() {
            var rang = RangLogs()
            for event in batch where !HubLayout.isTemporary(event.name) {
                // A watch this watcher does not know (one the kernel just took back) names no log.
                let log = watched.withLock { $0[event.watch] } ?? nil
                rang.formUnion(log.map { RangLogs.log($0) } ?? .unnamedRing)
            }
            if !rang.isEmpty { events.send(.hub, rang: rang) }
        }
    }
}

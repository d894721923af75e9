import Synchronization

import Glibc

/// Notices new segments in other devices' logs of a folder hub: inotify on the folders it names (its
/// devices folder, for a device joining, and each other device's folder, for a segment renamed into
/// place by journal or by Syncthing or Dropbox).
final class HubWatcher: Sendable {
    private let inotify: Inotify
    private let folders: @Sendable () -> [String]
    private let watched = Mutex<Set<String>>([])

    init(folders: @escaping @Sendable () -> [String]) throws(WatcherError) {
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
            if (try? inotify.watch(folder, mask: mask)) != nil, watched.withLock({ $0.insert(folder).inserted }) {
                added = true
            }
        }
        return added
    }

    /// Sends `.hub` to `events` when a segment or a device appears, until cancelled. Dot-names are
    /// other tools' temporaries, not segments yet.
    func feed(_ events: ChangeEvents) async {
        for await batch in inotify.events() where batch.contains(where: { !$0.name.hasPrefix(".") }) {
            events.send(.hub)
        }
    }
}

import Glibc

/// Notices writes to the journal by other processes (the CLI): inotify on the database's folder, for
/// the database and its WAL. In-process notification cannot see another process's commit. A write
/// event is only a hint; the loop confirms it with `PRAGMA data_version`.
struct DatabaseWatcher: Sendable {
    private let inotify: Inotify
    private let names: Set<String>

    init(databasePath: String) throws(WatcherError) {
        let slash = databasePath.lastIndex(of: "/")
        let folder = slash.map { String(databasePath[..<$0]) } ?? "."
        let file = slash.map { String(databasePath[databasePath.index(after: $0)...]) } ?? databasePath
        names = [file, file + "-wal"]
        inotify = try Inotify()
        _ = try inotify.watch(folder.isEmpty ? "/" : folder, mask: IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
    }

    /// Sends `.database` to `events` for every batch of writes, until cancelled.
    func feed(_ events: ChangeEvents) async {
        for await batch in inotify.events() where batch.contains(where: { names.contains($0.name) }) {
            events.send(.database)
        }
    }
}

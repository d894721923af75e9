import Glibc

/// Notices writes to the journal by other processes (the CLI): inotify on the database's folder, for
/// the database and its WAL. In-process notification cannot see another process's commit. A write
/// event is only a hint; the loop confirms it with `PRAGMA data_version`.
struct DatabaseWatcher: Sendable {
    let inotify: Inotify
    private let folder: String
    private let names: Set<String>

    /// Everything that changes the journal's files: writes, and the files made, moved or deleted. Not
    /// the closing of a file opened for writing: every process that reads the journal opens it so,
    /// and a commit is seen by its writes (and, while it is on its way, by the write lock it holds).
    private static let writes = IN_MODIFY | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM
    /// The files made, moved or deleted only, while the daemon writes the journal itself.
    private static let replacements = IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM

    init(databasePath: String) throws(WatcherError) {
        let slash = databasePath.lastIndex(of: "/")
        let parent = slash.map { String(databasePath[..<$0]) } ?? "."
        let file = slash.map { String(databasePath[databasePath.index(after: $0)...]) } ?? databasePath
        folder = parent.isEmpty ? "/" : parent
        names = [file, file + "-wal"]
        inotify = try Inotify()
        _ = try inotify.watch(folder, mask: Self.writes)
    }

    /// Sends `.database` to `events` for every batch of writes, until cancelled. Events about other
    /// files of the folder (the `-shm`, the locks) are dropped as they are read, waking nothing.
    func feed(_ events: ChangeEvents) async {
        let names = names
        for await _ in inotify.events(keeping: { names.contains($0.name) }) {
            events.send(.database)
        }
    }

    /// Runs `body`, the daemon's own writes to the journal, with writes not watched: each page it
    /// writes would wake the watcher's thread, a dozen times for one drink received. Then a `.database`
    /// hint stands for whatever another process wrote meanwhile, which the loop finds, as for any
    /// hint, in `data_version` (taken before the sync), or, for a commit still on its way, in the
    /// write lock it holds. The watch stays in place (its mask alone changes), so it cannot be lost
    /// to the system's limit on watches.
    func ignoringWrites<T>(sendingTo events: ChangeEvents, _ body: () async throws -> T) async rethrows -> T {
        _ = try? inotify.watch(folder, mask: Self.replacements)
        defer {
            _ = try? inotify.watch(folder, mask: Self.writes)
            events.send(.database)
        }
        return try await body()
    }
}

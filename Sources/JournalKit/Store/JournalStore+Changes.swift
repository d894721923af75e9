extension JournalStore {
    /// What was added, changed and deleted after `anchor` (everything, tombstones included, when nil),
    /// at most `limit` drinks in the order they were written, and the anchor to continue from.
    public func changes(since anchor: Anchor?, limit: Int) throws -> ChangeSet {
        let records = try connection.query(
            "\(Drink.table.select) WHERE seq > ? ORDER BY seq LIMIT ?",
            [.integer(anchor?.sequence ?? 0), .integer(Int64(max(limit, 1)))], row: Drink.table.record)
        return ChangeSet(records: records, newAnchor: records.last.map { Anchor(sequence: $0.sequence) } ?? anchor)
    }
}

extension JournalStore {
    /// A number that changes when another connection (another process) commits to the journal, and
    /// not for this store's own writes: how the daemon tells a real change from its own echo.
    public func dataVersion() throws -> Int64 {
        try connection.queryInteger("PRAGMA data_version") ?? 0
    }

    /// `dataVersion`, and whether another connection was writing just before it was read. A write
    /// touches the files (which file watchers see) before its commit shows in the number, and holds
    /// the write lock from before its first write until after that: when no one holds it, every write
    /// seen so far is in the number, or was no commit (a checkpoint, this store's own). A write under
    /// way is waited for up to `commitWaitMilliseconds`: a command's commit is over in milliseconds, and seen then,
    /// not at a second look later.
    public func dataVersionReading(waitingUpTo milliseconds: Int32 = commitWaitMilliseconds) throws -> DataVersionReading {
        let writing = try connection.anotherConnectionIsWriting(waitingUpTo: milliseconds)
        return DataVersionReading(value: try dataVersion(), anotherConnectionWasWriting: writing)
    }

    /// How long `dataVersionReading` waits for another connection's write to end: long enough for any
    /// command's, short enough that a long import holds the daemon up no more than that at a time.
    public static let commitWaitMilliseconds: Int32 = 1000
}

/// `PRAGMA data_version` as `JournalStore.dataVersionReading` read it.
public struct DataVersionReading: Equatable, Sendable {
    public var value: Int64
    /// Another connection held the write lock just before `value` was read: a commit may be on its way.
    public var anotherConnectionWasWriting: Bool

    public init(value: Int64, anotherConnectionWasWriting: Bool) {
        self.value = value
        self.anotherConnectionWasWriting = anotherConnectionWasWriting
    }
}

extension JournalStore {
    /// Refuses to go on when a newer journal has migrated the file since this store opened it (a
    /// long-running daemon after an upgrade of the CLI).
    public func checkSchemaIsKnown() throws {
        _ = try Migrator.currentVersion(connection, path: path, latest: Migration.latestVersion)
    }
}

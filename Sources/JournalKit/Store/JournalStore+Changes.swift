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
}

extension JournalStore {
    /// Refuses to go on when a newer journal has migrated the file since this store opened it (a
    /// long-running daemon after an upgrade of the CLI).
    public func checkSchemaIsKnown() throws {
        _ = try Migrator.currentVersion(connection, path: path, latest: Migration.latestVersion)
    }
}

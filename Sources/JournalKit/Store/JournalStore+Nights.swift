/// What an import of nights did.
public struct NightImportSummary: Sendable, Equatable {
    /// Nights the journal did not have.
    public var added = 0
    /// Nights it had with other figures, now the import's.
    public var replaced = 0
    /// Nights it had as they are.
    public var unchanged = 0
}

extension JournalStore {
    /// Writes `nights`, one transaction: each is the night of its date from now on, on every machine.
    /// One the journal has as it is stays untouched (importing the same file again writes nothing).
    /// `committing` is called as the transaction is about to commit.
    public func importNights(_ nights: [Night], committing: @Sendable () -> Void = {}) throws -> NightImportSummary {
        try write(nil) { context in
            var summary = NightImportSummary()
            for night in nights {
                let current = try Night.table.find(night.key, in: connection)
                if let current, !current.isDeleted, current.payload == night {
                    summary.unchanged += 1
                    continue
                }
                _ = try context.writeLocal(night, deleted: false, replacing: current)
                if current == nil || current?.isDeleted == true { summary.added += 1 } else { summary.replaced += 1 }
            }
            committing()
            return summary
        }
    }

    /// The live nights from `first` through `last` (every one without bounds), oldest first.
    public func nights(from first: LocalDate? = nil, through last: LocalDate? = nil) throws -> [Night] {
        try connection.query(
            "\(Night.table.select) WHERE deleted = 0 AND night >= ? AND night <= ? ORDER BY night",
            [.text(first?.description ?? "0000"), .text(last?.description ?? "9999")]
        ) { Night(row: $0) }
    }
}

extension JournalStore {
    /// Imports what `staging` holds, as `importDrinks` imports an array (one transaction, each
    /// drink checked, one undo), reading it back a row at a time so memory stays as it is. A drink
    /// staged twice over counts as one already present.
    public func importStaged(
        _ staging: sending ImportStaging, restoringDeleted: Bool = false, committing: @Sendable () -> Void = {},
        progress: (@Sendable (Int) -> Void)? = nil
    ) throws -> ImportSummary {
        let summary = try importDrinks(
            defining: staging.forEachCustomDrink, drinks: staging.forEachDrink, restoringDeleted: restoringDeleted, committing: committing,
            progress: progress)
        return ImportSummary(
            added: summary.added, alreadyPresent: summary.alreadyPresent + staging.repeats, deletedHere: summary.deletedHere,
            restored: summary.restored)
    }
}

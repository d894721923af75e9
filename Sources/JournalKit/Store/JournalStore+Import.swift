/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    /// Drinks that were new to this journal.
    public let added: Int
    /// Drinks whose id the journal has, left as they are.
    public let alreadyPresent: Int
    /// Drinks whose id the journal has deleted (by rm, undo or another machine), left deleted.
    public let deletedHere: Int
    /// Drinks deleted here that the import brought back, as asked.
    public let restored: Int

    public init(added: Int, alreadyPresent: Int, deletedHere: Int = 0, restored: Int = 0) {
        self.added = added
        self.alreadyPresent = alreadyPresent
        self.deletedHere = deletedHere
        self.restored = restored
    }
}

extension JournalStore {
    /// Adds the drinks whose ids the journal does not have, and the custom drinks they need that it
    /// does not have either, in one transaction: all or nothing. Importing the same file again
    /// changes nothing; a drink deleted here stays deleted, and is counted so, unless
    /// `restoringDeleted`. A custom drink new to the journal whose name looks like another drink's
    /// (`DrinkCatalog.refuseLookalike`) fails the import. `progress` hears how many of the drinks
    /// were gone through, every thousand, for a long import; `committing` is called once all is
    /// written, as the transaction is about to commit (an interrupt from then on leaves it to end).
    public func importDrinks(
        _ drinks: [Drink], defining customDrinks: [CustomDrink] = [], restoringDeleted: Bool = false,
        committing: @Sendable () -> Void = {}, progress: (@Sendable (Int) -> Void)? = nil
    ) throws -> ImportSummary {
        try importDrinks(
            defining: { try customDrinks.forEach($0) }, drinks: { try drinks.forEach($0) }, restoringDeleted: restoringDeleted,
            committing: committing, progress: progress)
    }

    /// The one path of every import, whatever holds its drinks until then (an array, a staging
    /// database): `customDrinks` and `drinks` call their argument with each of theirs, in turn.
    func importDrinks(
        defining customDrinks: ((CustomDrink) throws -> Void) throws -> Void,
        drinks: ((Drink) throws -> Void) throws -> Void,
        restoringDeleted: Bool,
        committing: @Sendable () -> Void = {},
        progress: (@Sendable (Int) -> Void)?
    ) throws -> ImportSummary {
        try write(.import) { context in
            try customDrinks { custom in
                let current = try CustomDrink.table.find(custom.name, in: connection)
                if current == nil || current?.isDeleted == true {
                    if current == nil { try importCatalog().refuseLookalike(of: custom.name) }
                    // An export carries no form: a drink removed here keeps the one it had, which the
                    // drinks logged with it are absorbed by.
                    var defined = custom
                    if let current { defined.form = current.payload.form }
                    _ = try context.writeUndoably(defined, deleted: false, replacing: current)
                }
            }
            var (seen, added, deleted, restored) = (0, 0, 0, 0)
            try drinks { drink in
                seen += 1
                if seen % 1000 == 0 { progress?(seen) }
                let current = try Drink.table.find(drink.id.rawValue, in: connection)
                if let current {
                    guard current.isDeleted else { return }
                    guard restoringDeleted else { return deleted += 1 }
                    restored += 1
                } else {
                    added += 1
                }
                _ = try context.writeUndoably(drink, deleted: false, replacing: current)
            }
            committing()
            return ImportSummary(added: added, alreadyPresent: seen - added - deleted - restored, deletedHere: deleted, restored: restored)
        }
    }
}

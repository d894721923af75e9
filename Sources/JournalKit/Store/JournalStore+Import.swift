/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    /// Drinks that were new to this journal.
    public let added: Int
    /// Drinks whose id the journal already had (live or deleted), left as they are.
    public let alreadyPresent: Int
}

extension JournalStore {
    /// Adds the drinks whose ids the journal does not have, and the custom drinks they need that it
    /// does not have either, in one transaction: all or nothing. Importing the same file again
    /// changes nothing; a drink deleted here stays deleted. A custom drink new to the journal whose
    /// name looks like another drink's (`DrinkCatalog.refuseLookalike`) fails the import.
    /// `progress` hears how many of the drinks were gone through, every thousand, for a long import.
    public func importDrinks(
        _ drinks: [Drink], defining customDrinks: [CustomDrink] = [], progress: (@Sendable (Int) -> Void)? = nil
    ) throws -> ImportSummary {
        try importDrinks(defining: { try customDrinks.forEach($0) }, drinks: { try drinks.forEach($0) }, progress: progress)
    }

    /// The one path of every import, whatever holds its drinks until then (an array, a staging
    /// database): `customDrinks` and `drinks` call their argument with each of theirs, in turn.
    func importDrinks(
        defining customDrinks: ((CustomDrink) throws -> Void) throws -> Void,
        drinks: ((Drink) throws -> Void) throws -> Void,
        progress: (@Sendable (Int) -> Void)?
    ) throws -> ImportSummary {
        try write(.import) { context in
            try customDrinks { custom in
                let current = try CustomDrink.table.find(custom.name, in: connection)
                if current == nil || current?.isDeleted == true {
                    if current == nil { try importCatalog().refuseLookalike(of: custom.name) }
                    _ = try context.writeLocal(custom, deleted: false, replacing: current)
                }
            }
            var (seen, added) = (0, 0)
            try drinks { drink in
                seen += 1
                if seen % 1000 == 0 { progress?(seen) }
                guard try Drink.table.find(drink.id.rawValue, in: connection) == nil else { return }
                _ = try context.writeDrink(drink, deleted: false, replacing: nil)
                added += 1
            }
            return ImportSummary(added: added, alreadyPresent: seen - added)
        }
    }
}

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
    /// changes nothing; a drink deleted here stays deleted.
    /// `progress` hears how many of the drinks were gone through, every thousand, for a long import.
    public func importDrinks(
        _ drinks: [Drink], defining customDrinks: [CustomDrink] = [], progress: (@Sendable (Int) -> Void)? = nil
    ) throws -> ImportSummary {
        try write(.import) { context in
            for custom in customDrinks {
                let current = try CustomDrink.table.find(custom.name, in: connection)
                if current == nil || current?.isDeleted == true {
                    _ = try context.writeLocal(custom, deleted: false, replacing: current)
                }
            }
            var added = 0
            for (index, drink) in drinks.enumerated() {
                if index % 1000 == 999 { progress?(index + 1) }
                guard try Drink.table.find(drink.id.rawValue, in: connection) == nil else { continue }
                _ = try context.writeDrink(drink, deleted: false, replacing: nil)
                added += 1
            }
            return ImportSummary(added: added, alreadyPresent: drinks.count - added)
        }
    }

}

import JournalKit

/// Finding the drink a person named: the built-in catalog first (no query), then their own drinks.
enum KindLookup {
    static func resolve(_ name: String, in store: isolated JournalStore) throws -> DrinkKind {
        if let kind = DrinkCatalog.settledKind(named: name) { return kind }
        return try store.catalog().resolve(name)
    }
}

extension JournalStore {
    /// The drinks the user defined, live ones only, by name.
    public func customDrinkKinds() throws -> [DrinkKind] {
        try connection.query(
            "SELECT \(CustomDrinkRows.columns) FROM custom_drinks WHERE deleted = 0 ORDER BY name", row: CustomDrinkRows.revision
        ).map(\.kind)
    }

    /// The built-in catalog and the user's own drinks.
    public func catalog() throws -> DrinkCatalog {
        DrinkCatalog(kinds: DrinkCatalog.builtIn.kinds + (try customDrinkKinds()))
    }

    /// The catalog an import checks names against: also the drinks the user defined and removed since,
    /// so an export made before the removal imports back.
    public func importCatalog() throws -> DrinkCatalog {
        let own = try connection.query(
            "SELECT \(CustomDrinkRows.columns) FROM custom_drinks ORDER BY name", row: CustomDrinkRows.revision
        ).map(\.kind)
        return DrinkCatalog(kinds: DrinkCatalog.builtIn.kinds + own)
    }

    /// Defines (or changes) a drink of the user's own. It reaches other machines like a drink does.
    public func defineDrink(named name: String, caffeineMg: Double) throws -> DrinkKind {
        let normalized = try Self.customName(name)
        let mg = try CaffeineDose.validated(caffeineMg)
        return try write(nil) { context in
            let current = try CustomDrinkRows.find(normalized, in: connection)
            if let current, !current.isDeleted, current.caffeineMg == mg { return current.kind }
            return try context.writeLocal(kind: normalized, caffeineMg: mg, deleted: false, before: current).kind
        }
    }

    /// Removes a drink of the user's own. Drinks already logged with it keep it.
    public func removeDrinkKind(named name: String) throws -> DrinkKind {
        let normalized = DrinkCatalog.normalized(name)
        if DrinkCatalog.builtIn.kind(named: normalized) != nil { throw CustomDrinkError.builtInCannotBeRemoved(normalized) }
        return try write(nil) { context in
            guard let current = try CustomDrinkRows.find(normalized, in: connection), !current.isDeleted else {
                let own = DrinkCatalog(kinds: try customDrinkKinds())
                throw CustomDrinkError.notFound(normalized, suggestions: own.suggestions(for: normalized))
            }
            return try context.writeLocal(kind: normalized, caffeineMg: current.caffeineMg, deleted: true, before: current).kind
        }
    }

    /// A name for a custom drink, normalized like the catalog's, and refused when it is not usable.
    static func customName(_ name: String) throws(CustomDrinkError) -> String {
        let normalized = DrinkCatalog.normalized(name)
        let bytes = Array(normalized.utf8)
        guard (1...40).contains(bytes.count), let first = bytes.first, (97...122).contains(first),
            bytes.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 45 })
        else { throw CustomDrinkError.invalidName(name) }
        if DrinkCatalog.builtIn.kind(named: normalized) != nil { throw CustomDrinkError.builtIn(normalized) }
        return normalized
    }
}

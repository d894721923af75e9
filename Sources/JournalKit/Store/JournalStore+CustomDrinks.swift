extension JournalStore {
    /// The drinks the user defined, live ones only, by name.
    func customDrinkKinds() throws -> [DrinkKind] {
        try customDrinks(includingRemoved: false).map(\.catalogKind)
    }

    private func customDrinks(includingRemoved: Bool) throws -> [CustomDrink] {
        try connection.query(
            "\(CustomDrink.table.select) WHERE deleted = 0 OR ? ORDER BY name", [.integer(includingRemoved ? 1 : 0)],
            row: CustomDrink.init(row:))
    }

    /// The built-in catalog and the user's own drinks.
    public func catalog() throws -> DrinkCatalog {
        DrinkCatalog(kinds: DrinkCatalog.builtIn.kinds + (try customDrinkKinds()))
    }

    /// The catalog an import checks names against: also the drinks the user defined and removed since,
    /// so an export made before the removal imports back.
    public func importCatalog() throws -> DrinkCatalog {
        DrinkCatalog(kinds: DrinkCatalog.builtIn.kinds + (try customDrinks(includingRemoved: true).map(\.catalogKind)))
    }

    /// The caffeine of one serving of each drink the user defined (removed ones too), by name: what an
    /// export carries so that it imports into a journal without them.
    public func customServings() throws -> [String: Double] {
        var servings: [String: Double] = [:]
        for drink in try customDrinks(includingRemoved: true) { servings[drink.name] = drink.caffeineMg }
        return servings
    }

    /// Defines (or changes) a drink of the user's own. It reaches other machines like a drink does. A
    /// new name that looks like another drink's (`DrinkCatalog.refuseLookalike`) is refused.
    public func defineDrink(named name: String, caffeineMg: Double, form: DrinkForm = .beverage) throws -> DrinkDefinition {
        let canonical = DrinkCatalog.normalized(name)
        return try write(.defineDrink) { context in
            let drink = CustomDrink(name: try storedName(ofOwnDrink: canonical), caffeineMg: caffeineMg, form: form)
            let current = try CustomDrink.table.find(drink.name, in: connection)
            let earlier = current.flatMap { $0.isDeleted ? nil : $0.payload.caffeineMg }
            let earlierForm = current.flatMap { $0.isDeleted ? nil : $0.payload.form }
            if let current, !current.isDeleted, current.payload == drink {
                return DrinkDefinition(kind: current.payload.catalogKind, earlierMg: earlier, earlierForm: earlierForm)
            }
            if current == nil {
                // A name that cannot be one is told so first, whatever it looks like.
                try drink.validate()
                // Nor a new one by the name of a drink the catalog gained later (a peer's, or one
                // defined before, keeps its name: `DrinkKind.isLaterAddition`).
                if DrinkCatalog.builtIn.kind(canonicallyNamed: canonical) != nil {
                    throw InvalidRecordError(
                        problem: "'\(canonical)' is a built-in drink, so a drink of your own cannot have that name", kind: .usage,
                        remedy: .renameOrGiveCaffeine)
                }
                try importCatalog().refuseLookalike(of: canonical)
            }
            return DrinkDefinition(
                kind: try context.writeUndoably(drink, deleted: false, replacing: current).payload.catalogKind, earlierMg: earlier,
                earlierForm: earlierForm)
        }
    }

    /// Removes a drink of the user's own. Drinks already logged with it keep it.
    public func removeDrinkKind(named name: String) throws -> DrinkKind {
        let normalized = DrinkCatalog.normalized(name)
        if DrinkCatalog.settledKind(named: normalized) != nil { throw CustomDrinkError.builtInCannotBeRemoved(normalized) }
        return try write(.removeDrink) { context in
            guard let current = try CustomDrink.table.find(try storedName(ofOwnDrink: normalized), in: connection), !current.isDeleted else {
                if DrinkCatalog.builtIn.kind(named: normalized) != nil { throw CustomDrinkError.builtInCannotBeRemoved(normalized) }
                let own = DrinkCatalog(kinds: try customDrinkKinds())
                throw CustomDrinkError.notFound(normalized, suggestions: own.suggestions(for: normalized))
            }
            return try context.writeUndoably(current.payload, deleted: true, replacing: current).payload.catalogKind
        }
    }

    /// The name the user's drink `canonical` is stored under: `canonical`, unless only an earlier
    /// journal's form of it is stored (weiß-bier for weiss-bier), which then stays its name, the one its
    /// other machines know it by.
    private func storedName(ofOwnDrink canonical: String) throws -> String {
        if try CustomDrink.table.find(canonical, in: connection) != nil { return canonical }
        return try customDrinks(includingRemoved: true).first { DrinkName.canonical($0.name) == canonical }?.name ?? canonical
    }
}

/// What `drinks add` did: the drink as defined now, and its caffeine before when it was defined already.
public struct DrinkDefinition: Sendable, Equatable {
    public let kind: DrinkKind
    /// nil when the drink is new (or was removed).
    public let earlierMg: Double?
    /// Its form before; nil when the drink is new (or was removed).
    public var earlierForm: DrinkForm? = nil
}

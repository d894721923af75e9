/// The drinks `journal add` knows by name.
public struct DrinkCatalog: Sendable {
    public let kinds: [DrinkKind]
    /// Whether a drink of one's own is among `kinds`: then it is looked for first, as a drink of one's
    /// own keeps its name when the catalog later gains a drink called so (`isLaterAddition`).
    private let holdsOwn: Bool

    public init(kinds: [DrinkKind]) {
        self.kinds = kinds
        holdsOwn = kinds.contains { $0.isCustom }
    }

    /// The built-in catalog: each drink's caffeine for the serving it names, and where the figure is
    /// from.
    ///
    /// Coffee and tea figures are those of Apple's Coffee Tracker sample (`Drink.swift` in "Using
    /// HealthKit with Swift concurrency"), which names no serving: its figures are the Mayo Clinic's
    /// ("Caffeine content for coffee, tea, soda and more") for 8 oz (237 ml) of brewed coffee, tea and
    /// cola and 1 oz (30 ml) of espresso, and 1.5, 2 and 4 times those, whose servings these are.
    /// Decaf, instant coffee and energy shot are the Mayo Clinic's. Coffee Tracker's energy drink (29
    /// mg, an older Mayo Clinic figure for 8 oz) is far under a can's: the catalog's is EFSA's 80 mg
    /// for a 250 ml can (Scientific Opinion on the safety of caffeine, 2015); an Apple Health sample of
    /// Coffee Tracker's 29 mg is still its energy drink (`CaffeineRecord.catalogFigures`). The coffee-bar
    /// drinks are Starbucks' published grande (473 ml) figures; matcha is the Standard Tables of Food
    /// Composition in Japan's (MEXT, 2020: 3.2 g of caffeine in 100 g of powder, 1.5 g to a 70 ml
    /// bowl); mate is Heck and de Mejia's (2007, J Food Sci) 78 mg for 8 oz. Soft drinks and chocolate are slow
    /// (`DrinkForm`): Mumford et al. (1996) measured their peak after 1.5 to 2 hours.
    public static let builtIn = DrinkCatalog(kinds: [
        DrinkKind(name: "small-coffee", caffeineMg: 96, serving: "237 ml cup", source: "Coffee Tracker"),
        DrinkKind(name: "medium-coffee", caffeineMg: 144, aliases: ["coffee"], serving: "355 ml cup", source: "Coffee Tracker"),
        DrinkKind(name: "large-coffee", caffeineMg: 192, serving: "473 ml cup", source: "Coffee Tracker"),
        DrinkKind(name: "espresso", caffeineMg: 64, aliases: ["single-espresso"], serving: "single shot 30 ml", source: "Coffee Tracker"),
        DrinkKind(name: "double-espresso", caffeineMg: 128, serving: "double shot 60 ml", source: "Coffee Tracker"),
        DrinkKind(name: "quad-espresso", caffeineMg: 256, serving: "four shots 120 ml", source: "Coffee Tracker"),
        DrinkKind(name: "black-tea", caffeineMg: 47, aliases: ["tea"], serving: "237 ml cup", source: "Coffee Tracker"),
        DrinkKind(name: "green-tea", caffeineMg: 28, serving: "237 ml cup", source: "Coffee Tracker"),
        DrinkKind(name: "soft-drink", caffeineMg: 22, aliases: ["cola"], serving: "237 ml glass", source: "Coffee Tracker", form: .slow),
        DrinkKind(name: "energy-drink", caffeineMg: 80, serving: "250 ml can", source: "EFSA 2015"),
        DrinkKind(name: "chocolate", caffeineMg: 18, serving: "size not stated", source: "Coffee Tracker", form: .slow),
        DrinkKind(name: "decaf-coffee", caffeineMg: 1, serving: "237 ml cup", source: "Mayo Clinic"),
        DrinkKind(name: "instant-coffee", caffeineMg: 62, serving: "237 ml cup", source: "Mayo Clinic"),
        DrinkKind(name: "energy-shot", caffeineMg: 200, serving: "60 ml shot", source: "Mayo Clinic"),
        DrinkKind(name: "latte", caffeineMg: 150, serving: "473 ml (grande)", source: "Starbucks", isLaterAddition: true),
        DrinkKind(name: "cappuccino", caffeineMg: 150, serving: "473 ml (grande)", source: "Starbucks", isLaterAddition: true),
        DrinkKind(name: "americano", caffeineMg: 225, serving: "473 ml (grande)", source: "Starbucks", isLaterAddition: true),
        DrinkKind(name: "flat-white", caffeineMg: 195, serving: "473 ml (grande)", source: "Starbucks", isLaterAddition: true),
        DrinkKind(name: "cold-brew", caffeineMg: 200, serving: "473 ml (grande)", source: "Starbucks", isLaterAddition: true),
        DrinkKind(name: "matcha", caffeineMg: 48, serving: "1.5 g in 70 ml", source: "MEXT 2020", isLaterAddition: true),
        DrinkKind(name: "mate", caffeineMg: 78, aliases: ["yerba-mate"], serving: "237 ml cup", source: "Heck 2007", isLaterAddition: true),
    ])

    /// The drink called `name` (or one of its aliases), whatever the case, width or compatibility forms
    /// it is typed in (`DrinkName.canonical`) and the spaces around it. A drink an earlier journal stored
    /// under the form its name had then (weiß-bier, before names were folded fully) answers to today's
    /// form of that name (weiss-bier) too.
    public func kind(named name: String) -> DrinkKind? {
        let wanted = DrinkCatalog.normalized(name)
        // A few dozen names: a scan is cheaper than building a dictionary on every start.
        if let kind = kind(canonicallyNamed: wanted) { return kind }
        // Only a drink of one's own can be stored under an earlier form (the catalog's names are
        // ASCII, and were canonical then too), and only when its name goes beyond ASCII.
        for kind in kinds where kind.isCustom && !kind.name.utf8.allSatisfy({ $0 < 0x80 }) && DrinkName.canonical(kind.name) == wanted {
            return kind
        }
        return nil
    }

    /// The drink whose name or alias is `canonicalName`, as it is. Inlined: `journal add espresso`
    /// takes no call more than it did before earlier forms were looked for.
    @inline(__always)
    func kind(canonicallyNamed canonicalName: String) -> DrinkKind? {
        if holdsOwn {
            for kind in kinds where kind.isCustom && (kind.name == canonicalName || kind.aliases.contains(canonicalName)) { return kind }
        }
        for kind in kinds where kind.name == canonicalName || kind.aliases.contains(canonicalName) { return kind }
        return nil
    }

    /// The built-in drink `name` names when no drink of one's own can be called so: one the catalog
    /// had before drinks of one's own were (`isLaterAddition` false), looked up without the journal.
    /// nil for another name, which the journal's own catalog (`JournalStore.catalog`) answers.
    public static func settledKind(named name: String) -> DrinkKind? {
        guard let kind = builtIn.kind(named: name), !kind.isLaterAddition else { return nil }
        return kind
    }

    /// Refuses `name` (canonical) for a new drink when it looks like the name or an alias of one of
    /// this catalog's drinks without being it: the same skeleton (Unicode TS #39) under another
    /// canonical name, such as "еspresso" with a Cyrillic е, which every table would show as espresso.
    public func refuseLookalike(of name: String) throws(LookalikeNameError) {
        let key = skeleton(name)
        for kind in kinds {
            for other in [kind.name] + kind.aliases {
                let otherName = DrinkName.canonical(other)
                if otherName != name && skeleton(otherName) == key {
                    throw LookalikeNameError(name: name, lookalike: other, lookalikeIsOwn: kind.isCustom)
                }
            }
        }
    }

    /// Like `kind(named:)`, but an unknown name is an error that suggests the closest names.
    public func resolve(_ name: String) throws(UnknownDrinkError) -> DrinkKind {
        guard let kind = kind(named: name) else {
            throw UnknownDrinkError(name: name, suggestions: suggestions(for: name))
        }
        return kind
    }

    /// Up to three known names closest to `name`: names it is a part of first, then by edit distance.
    public func suggestions(for name: String) -> [String] {
        let wanted = DrinkCatalog.normalized(name)
        let names = kinds.flatMap { [$0.name] + $0.aliases }.sorted()
        let containing = names.filter { !wanted.isEmpty && ($0.contains(wanted) || wanted.contains($0)) }
        let near = names
            .map { (name: $0, distance: EditDistance.between($0, wanted)) }
            .filter { $0.distance <= max(2, wanted.count / 3) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
            .map(\.name)
        var seen = Set<String>()
        return (containing + near).filter { seen.insert($0).inserted }.prefix(3).map { $0 }
    }

    /// Catalog names are canonical (`DrinkName`): "Double Espresso" and "double_espresso" find one.
    static func normalized(_ name: String) -> String { DrinkName.canonical(name) }
}

/// A drink a person defined (`journal drinks add oat-latte --mg 130`): a name and the caffeine of
/// one serving. It reaches their other machines as a replicated record of its own kind.
public struct CustomDrink: Hashable, Sendable {
    public var name: String
    public var caffeineMg: Double
    /// How fast its caffeine is absorbed, for the personal model.
    public var form: DrinkForm

    public init(name: String, caffeineMg: Double, form: DrinkForm = .beverage) {
        self.name = name
        self.caffeineMg = caffeineMg
        self.form = form
    }

    /// The catalog entry it makes.
    public var catalogKind: DrinkKind {
        DrinkKind(name: name, caffeineMg: caffeineMg, source: "your own", isCustom: true, form: form)
    }
}

/// A drink the catalog knows: its name, the caffeine of one serving, and other names it answers to.
public struct DrinkKind: Hashable, Sendable {
    public let name: String
    public let caffeineMg: Double
    public let aliases: [String]
    /// Where the figure comes from, shown by `journal drinks`.
    public let source: String
    /// True for drinks the user defined rather than the built-in ones.
    public let isCustom: Bool
    /// How fast its caffeine reaches the blood, for the personal model.
    public let form: DrinkForm

    public init(
        name: String, caffeineMg: Double, aliases: [String] = [], source: String, isCustom: Bool = false, form: DrinkForm = .beverage
    ) {
        self.name = name
        self.caffeineMg = caffeineMg
        self.form = form
        self.aliases = aliases
        self.source = source
        self.isCustom = isCustom
    }
}

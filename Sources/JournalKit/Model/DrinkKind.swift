/// A drink the catalog knows: its name, the caffeine of one serving, and other names it answers to.
public struct DrinkKind: Hashable, Sendable {
    public let name: String
    public let caffeineMg: Double
    public let aliases: [String]
    /// The serving `caffeineMg` is for ("single shot 30 ml", "250 ml can"); nil for a drink of one's own.
    public let serving: String?
    /// Where the figure comes from, shown by `journal drinks`.
    public let source: String
    /// True for drinks the user defined rather than the built-in ones.
    public let isCustom: Bool
    /// How fast its caffeine reaches the blood, for the personal model.
    public let form: DrinkForm
    /// True for a built-in drink the catalog gained after people could define drinks of their own
    /// (latte, mate, ...): a drink of one's own by its name, defined before or on a machine of an
    /// earlier version, keeps its name and its caffeine, and is the one meant by it.
    public let isLaterAddition: Bool

    public init(
        name: String, caffeineMg: Double, aliases: [String] = [], serving: String? = nil, source: String, isCustom: Bool = false,
        form: DrinkForm = .beverage, isLaterAddition: Bool = false
    ) {
        self.isLaterAddition = isLaterAddition
        self.serving = serving
        self.name = name
        self.caffeineMg = caffeineMg
        self.form = form
        self.aliases = aliases
        self.source = source
        self.isCustom = isCustom
    }
}

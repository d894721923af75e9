/// The journal's exchange format, shared by `--json` output, `export` and `import`: a drink is
/// `{"id", "drink", "caffeine_mg", "consumed_at", "note"}` with an ISO 8601 time and offset; CSV has a
/// header row with the same names. In an export, a drink of the person's own also carries
/// `drink_serving_mg`, its definition, so the export imports into a journal that lacks it.
public enum DrinkExchange {
    public static let fields = ["id", "drink", "caffeine_mg", "consumed_at", "note", "drink_serving_mg"]

    /// The largest export `journal import` reads: over a million drinks, and still memory a laptop has.
    public static let importSizeLimit = 256 * 1024 * 1024

    /// A drink as JSON; `serving` is its custom drink's caffeine per serving, for an export.
    public static func json(_ drink: Drink, serving: Double? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(drink.id.rawValue)), ("drink", .string(drink.kind)),
            ("caffeine_mg", .number(drink.caffeineMg)), ("consumed_at", .string(LocalTime.iso8601(drink.consumedAt))),
        ]
        members.append(("note", drink.note.map { .string($0) } ?? .null))
        if let serving { members.append(("drink_serving_mg", .number(serving))) }
        return .object(members)
    }

    /// The drinks as a JSON array; `servings` gives the custom drinks' servings, by name, for an export.
    public static func jsonArray(_ drinks: [Drink], servings: [String: Double] = [:]) -> String {
        JSONValue.array(drinks.map { json($0, serving: servings[$0.kind]) }).prettyText + "\n"
    }

    /// The drinks as CSV with a header row; `forTerminal` shows what would act on a terminal escaped.
    public static func csv(_ drinks: [Drink], servings: [String: Double] = [:], forTerminal: Bool = false) -> String {
        var text = CSV.line(fields)
        let isText = [true, true, false, true, true, false]
        for drink in drinks {
            text += CSV.line(
                [
                    drink.id.rawValue, drink.kind, JSONValue.format(drink.caffeineMg),
                    LocalTime.iso8601(drink.consumedAt), drink.note ?? "", servings[drink.kind].map(JSONValue.format) ?? "",
                ], text: isText, forTerminal: forTerminal)
        }
        return text
    }
}

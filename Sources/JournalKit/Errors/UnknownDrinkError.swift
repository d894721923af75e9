/// A drink name the catalog does not know.
public struct UnknownDrinkError: JournalFailure, Equatable {
    public let name: String
    public let suggestions: [String]

    public var kind: FailureKind { .badData }
    public var remedy: Remedy? { .listOrDefineDrinks }

    public var description: String {
        var text = "unknown drink '\(name)'."
        if !suggestions.isEmpty {
            text += " Did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?"
        }
        return text
    }
}

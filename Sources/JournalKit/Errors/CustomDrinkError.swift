/// A custom drink that cannot be defined or removed.
public enum CustomDrinkError: JournalFailure, Equatable {
    case builtInCannotBeRemoved(String)
    case notFound(String, suggestions: [String])

    public var kind: FailureKind {
        switch self {
        case .builtInCannotBeRemoved: return .usage
        case .notFound: return .badData
        }
    }

    public var remedy: Remedy? { .listOwnDrinks }

    public var description: String {
        switch self {
        case .builtInCannotBeRemoved(let name):
            return "'\(name)' is a built-in drink; only drinks you defined yourself can be removed."
        case .notFound(let name, let suggestions):
            var text = "you have no drink called '\(name)'."
            if !suggestions.isEmpty { text += " Did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?" }
            return text
        }
    }
}

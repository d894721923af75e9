/// A custom drink that cannot be defined or removed.
public enum CustomDrinkError: JournalFailure, Equatable {
    case invalidName(String)
    case builtIn(String)
    case builtInCannotBeRemoved(String)
    case notFound(String, suggestions: [String])

    public var kind: FailureKind {
        switch self {
        case .invalidName, .builtIn, .builtInCannotBeRemoved: return .usage
        case .notFound: return .badData
        }
    }

    public var description: String {
        switch self {
        case .invalidName(let name):
            return "'\(name)' cannot name a drink: use 1 to 40 letters, digits and dashes, starting with a letter, such as oat-latte."
        case .builtIn(let name):
            return "'\(name)' is a built-in drink; give yours another name, or log this one with --mg N."
        case .builtInCannotBeRemoved(let name):
            return "'\(name)' is a built-in drink; only drinks you defined (journal drinks add) can be removed."
        case .notFound(let name, let suggestions):
            var text = "you have no drink called '\(name)'."
            if !suggestions.isEmpty { text += " Did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?" }
            return text + " `journal drinks` lists yours (source: your own)."
        }
    }
}

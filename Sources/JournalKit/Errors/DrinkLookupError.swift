/// An id or id prefix that names no drink, or more than one; "last" in a journal without drinks.
public enum DrinkLookupError: JournalFailure, Equatable {
    case notFound(String)
    case ambiguous(String, candidates: [Drink])
    case noDrinks

    public var kind: FailureKind { .badData }
    public var remedy: Remedy? {
        if case .notFound = self { return .listIDs }
        return nil
    }

    public var description: String {
        switch self {
        case .noDrinks:
            return "the journal has no drink yet: journal add espresso records one."
        case .notFound(let prefix):
            return "no drink has an id starting with '\(prefix)'."
        case .ambiguous(let prefix, let candidates):
            let lines = candidates.map {
                "  \($0.id.rawValue)  \(LocalTime.display($0.consumedAt))  \($0.kind)"
            }
            return "'\(prefix)' starts the ids of \(candidates.count) drinks; give more of the id:\n"
                + lines.joined(separator: "\n")
        }
    }
}

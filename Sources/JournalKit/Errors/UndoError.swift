/// Why `journal undo` could not undo.
public enum UndoError: JournalFailure, Equatable {
    case nothingToUndo
    case changedSince(DrinkID)

    public var kind: FailureKind { .failure }

    public var remedy: Remedy? {
        if case .changedSince(let id) = self { return .editInstead(id) }
        return nil
    }

    public var description: String {
        switch self {
        case .nothingToUndo:
            return "nothing to undo: no change made on this machine is left to revert."
        case .changedSince(let id):
            return "cannot undo: drink \(id.short) was changed since (on another machine, or by a later "
                + "command); undoing would lose that change."
        }
    }
}

/// Why `journal undo` or `journal redo` could not go on.
public enum UndoError: JournalFailure, Equatable {
    case nothingToUndo
    case nothingToRedo
    /// A record the change touched was changed since: going on would lose that change.
    case changedSince(ChangedRecord, redoing: Bool)
    /// The change holds a kind of record this version does not know how to put back.
    case unknownRecordKind(String)

    public var kind: FailureKind { .failure }

    public var remedy: Remedy? {
        if case .changedSince(.drink(let id), _) = self { return .editInstead(id) }
        return nil
    }

    public var description: String {
        switch self {
        case .nothingToUndo:
            return "nothing to undo: no change made on this machine is left to revert."
        case .nothingToRedo:
            return "nothing to redo: no undo is left to take back (a change made since an undo ends what redo can do)."
        case .changedSince(let record, let redoing):
            return "cannot \(redoing ? "redo" : "undo"): \(record) was changed since (on another machine, or by a later "
                + "command); \(redoing ? "redoing" : "undoing") would lose that change."
        case .unknownRecordKind(let kind):
            return "cannot undo: the change holds records of a kind ('\(TerminalText.escaped(kind))') this version of journal does not know."
        }
    }
}

/// A record an undo or redo found changed.
public enum ChangedRecord: Sendable, Equatable, CustomStringConvertible {
    case drink(DrinkID)
    /// A drink of one's own, by name.
    case definition(String)

    public var description: String {
        switch self {
        case .drink(let id): return "drink \(id.short)"
        case .definition(let name): return "your drink \(TerminalText.escaped(name))"
        }
    }
}

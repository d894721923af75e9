/// A name for a new drink of one's own that looks like the name of another drink: the same confusable
/// skeleton (`skeleton(_:)`) under another canonical name, such as "еspresso" with a Cyrillic е. Every
/// table would show the two alike, so the new one is refused.
public struct LookalikeNameError: JournalFailure, Equatable {
    /// The name refused, canonical.
    public let name: String
    /// The name (or alias) it looks like.
    public let lookalike: String
    /// True when that is a drink the user defined, false for the catalog's.
    public let lookalikeIsOwn: Bool

    public init(name: String, lookalike: String, lookalikeIsOwn: Bool) {
        self.name = name
        self.lookalike = lookalike
        self.lookalikeIsOwn = lookalikeIsOwn
    }

    public var kind: FailureKind { .usage }

    public var description: String {
        "'\(TerminalText.quoted(name))' looks like \(lookalikeIsOwn ? "your drink" : "the catalog's") "
            + "\(TerminalText.quoted(lookalike)): choose another name"
    }
}

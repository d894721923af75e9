/// A time the parser cannot turn into one instant, with an example of what would work.
public struct TimeParseError: JournalFailure, Equatable {
    public let input: String
    public let reason: String
    public let example: String

    public var kind: FailureKind { .badData }

    public var description: String {
        "cannot use '\(input)' as a time: \(reason). Try, for example: \(example)"
    }
}

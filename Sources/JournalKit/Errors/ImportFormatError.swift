/// An import file that cannot be read, with where in it the problem is.
public struct ImportFormatError: JournalFailure, Equatable {
    /// "line 4" for CSV, "element 3" for JSON, or the file itself.
    public let location: String
    public let problem: String

    public init(location: String, problem: String) {
        self.location = location
        self.problem = problem
    }

    public var kind: FailureKind { .badData }

    public var description: String {
        "cannot import, \(location): \(problem). Nothing was imported."
    }
}

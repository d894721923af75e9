/// An import file that cannot be read, with where in it the problem is.
public struct ImportFormatError: JournalFailure, Equatable {
    /// "line 4" for CSV, "element 3" for JSON, or the file itself.
    public let location: String
    public let problem: String
    public let remedy: Remedy?

    public init(location: String, problem: String, remedy: Remedy? = nil) {
        self.location = location
        self.problem = problem
        self.remedy = remedy
    }

    /// The failure of one record, at `location`.
    public init(location: String, failure: any JournalFailure) {
        self.init(location: location, problem: failure.description, remedy: failure.remedy)
    }

    public var kind: FailureKind { .badData }

    public var description: String {
        let sentence = problem.hasSuffix(".") ? String(problem.dropLast()) : problem
        return "cannot import, \(location): \(sentence). Nothing was imported."
    }
}

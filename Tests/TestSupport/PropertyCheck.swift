import Foundation
import PropertyBased
import Testing

/// `propertyCheck`, with what `body` throws recorded as a failure of that input. swift-property-based
/// runs `body` under `try?` and counts only recorded issues, so a history that throws midway (a sync
/// that fails, a store that refuses) would pass unseen, having checked nothing.
///
/// Every issue an input raises is also written to standard error as it happens: while it shrinks,
/// swift-property-based holds back the issues of the runs it makes, and when the failure does not come
/// again (a race, a server that was slow) all a log would keep is "Failure occured with input ...".
public func checkProperty<InputValue, ResultValue>(
    count: Int, input: Generator<ResultValue, some Sequence<InputValue>>, isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation, perform body: (ResultValue) async throws -> Void
) async {
    await propertyCheck(
        count: count, input: input,
        perform: { value in
            let described = String(describing: value)
            let echo = IssueHandlingTrait.compactMapIssues { issue in
                FileHandle.standardError.write(Data("property check: \(issue) (input \(described))\n".utf8))
                return issue
            }
            nonisolated(unsafe) let body = body
            nonisolated(unsafe) let value = value
            try? await echo.provideScope(for: Test.current!, testCase: Test.Case.current) {
                do { try await body(value) } catch {
                    Issue.record(error, "thrown for the input \(described)", sourceLocation: sourceLocation)
                }
            }
        }, isolation: isolation, sourceLocation: sourceLocation)
}

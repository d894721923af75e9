import PropertyBased
import Testing

/// `propertyCheck`, with what `body` throws recorded as a failure of that input. swift-property-based
/// runs `body` under `try?` and counts only recorded issues, so a history that throws midway (a sync
/// that fails, a store that refuses) would pass unseen, having checked nothing.
public func checkProperty<InputValue, ResultValue>(
    count: Int, input: Generator<ResultValue, some Sequence<InputValue>>, isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation, perform body: (ResultValue) async throws -> Void
) async {
    await propertyCheck(
        count: count, input: input,
        perform: { value in
            do { try await body(value) } catch {
                Issue.record(error, "thrown for the input \(value)", sourceLocation: sourceLocation)
            }
        }, isolation: isolation, sourceLocation: sourceLocation)
}

import JournalKit

/// A sleep analysis sample of a Health export: `<Record type="HKCategoryTypeIdentifierSleepAnalysis"
/// sourceName="Apple Watch" value="HKCategoryValueSleepAnalysisAsleepCore" startDate=... endDate=...>`.
struct SleepRecord {
    static let type = Array("HKCategoryTypeIdentifierSleepAnalysis".utf8)

    /// HealthKit's values, and the stage each is. `Asleep` is the value before watchOS 9 wrote stages.
    static let stages: [(value: String, stage: SleepSample.Stage)] = [
        ("HKCategoryValueSleepAnalysisInBed", .inBed), ("HKCategoryValueSleepAnalysisAsleepUnspecified", .asleep),
        ("HKCategoryValueSleepAnalysisAsleep", .asleep), ("HKCategoryValueSleepAnalysisAsleepCore", .core),
        ("HKCategoryValueSleepAnalysisAsleepDeep", .deep), ("HKCategoryValueSleepAnalysisAsleepREM", .rem),
        ("HKCategoryValueSleepAnalysisAwake", .awake),
    ]

    /// The sample a record is (nil inside for one of no length, which holds nothing), or why it cannot
    /// be one; nil for a record of another type.
    static func sample(_ element: HealthXMLElement) -> Result<SleepSample?, SkippedSleep>? {
        let attributes = element.attributes
        guard element.kind == .record, attributes.has(.type, type) else { return nil }
        let empty = HealthXMLValue(text: "", length: 0)
        let source = attributes.value(.sourceName) ?? empty, value = attributes.value(.value) ?? empty
        let start = attributes.value(.startDate) ?? empty, end = attributes.value(.endDate) ?? empty
        func skip(_ reason: String) -> Result<SleepSample?, SkippedSleep> { .failure(SkippedSleep(reason: reason)) }
        guard [source, value, start, end].allSatisfy(\.isWhole) else { return skip("a value is longer than a sample's can be") }
        guard let stage = stages.first(where: { $0.value == value.text })?.stage else {
            return skip("the value \(CaffeineRecord.quoted(value)) is not a stage of sleep HealthKit writes")
        }
        guard let from = HealthDate.instant(start.text), let to = HealthDate.instant(end.text) else {
            return skip("its dates cannot be read (Health writes 2024-02-28 08:00:00 +0100)")
        }
        if to == from { return .success(nil) }
        guard to > from, to.milliseconds - from.milliseconds <= SleepSample.longest else { return skip("it must end after it starts, within 24 hours") }
        if NightRules.sourceProblem(source.text) != nil {
            return skip("its app name \(CaffeineRecord.quoted(source)) cannot name a source of nights")
        }
        return .success(SleepSample(start: from, end: to, stage: stage, source: source.text))
    }
}

/// Why a sleep record is not a sample.
struct SkippedSleep: Error {
    let reason: String
}

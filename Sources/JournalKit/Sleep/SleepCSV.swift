/// Sleep samples from any tracker, as CSV: a header `start,end,stage` (and, optionally, `source`), then
/// a sample a line; times in ISO 8601 with their offset (`2026-11-21T23:10:00+01:00`), stages as
/// `SleepSample.Stage` names them. A line that cannot be a sample is named and left out; the rest
/// imports.
public enum SleepCSV {
    /// The source of samples from a file without a `source` column.
    public static let defaultSource = "sleep-csv"

    public struct Parsed: Sendable {
        public var samples: [SleepSample] = []
        /// The first lines left out, and why.
        public var skipped: [(line: Int, problem: String)] = []
        /// All lines left out.
        public var skippedCount = 0
    }

    /// The most lines a file may have: about forty years of a watch's stages. Its records are held
    /// whole while read, about a hundred bytes each.
    public static let mostLines = 500_000
    /// How many lines left out are kept to be named.
    public static let skippedKept = 20

    public static func parse(_ bytes: [UInt8]) throws(ImportFormatError) -> Parsed {
        let lines = bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        guard lines <= mostLines else {
            throw ImportFormatError(
                location: "the file", problem: "it has \(lines) lines, more than the \(mostLines) a sleep CSV may have: split it by year")
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw ImportFormatError(location: "the file", problem: "it is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let records = try CSV.records(text)
        guard let header = records.first else {
            throw ImportFormatError(location: "the file", problem: "it is empty: a sleep CSV starts with the line start,end,stage")
        }
        let names = header.fields.map { $0.trimmingSpaces.lowercased() }
        guard let start = names.firstIndex(of: "start"), let end = names.firstIndex(of: "end"), let stage = names.firstIndex(of: "stage") else {
            throw ImportFormatError(
                location: "line \(header.line)", problem: "its header must name the columns start, end and stage (and, if you like, source)")
        }
        let source = names.firstIndex(of: "source")
        let stages = SleepSample.Stage.allCases.map(\.rawValue).joined(separator: ", ")
        var parsed = Parsed()
        for record in records.dropFirst() {
            func skip(_ problem: String) {
                parsed.skippedCount += 1
                if parsed.skipped.count < skippedKept { parsed.skipped.append((record.line, problem)) }
            }
            guard record.fields.count == names.count else {
                skip("it has \(record.fields.count) fields where the header has \(names.count)")
                continue
            }
            let stageText = record.fields[stage].trimmingSpaces
            guard let kind = SleepSample.Stage(rawValue: stageText.lowercased()) else {
                skip("'\(TerminalText.quoted(stageText))' is not a stage: stages are \(stages)")
                continue
            }
            guard let from = time(record.fields[start]), let to = time(record.fields[end]) else {
                skip("its times must be ISO 8601 with their offset, such as 2026-11-21T23:10:00+01:00")
                continue
            }
            // A sample of no length (some apps write them) holds nothing: passed over, not refused.
            if to == from { continue }
            guard to > from, to.milliseconds - from.milliseconds <= SleepSample.longest else {
                skip("it must end after it starts, within 24 hours")
                continue
            }
            let name = source.map { record.fields[$0].trimmingSpaces } ?? defaultSource
            if let problem = NightRules.sourceProblem(name) {
                skip(problem)
                continue
            }
            parsed.samples.append(SleepSample(start: from, end: to, stage: kind, source: name))
        }
        return parsed
    }

    /// An ISO 8601 date-time that says its offset (`Z`, `+01:00`, `-0500`): a sleep file may come from
    /// another time zone than this machine's.
    static func time(_ field: String) -> Timestamp? {
        let text = field.trimmingSpaces
        let bytes = Array(text.utf8)
        // Z, or a sign 3, 5 or 6 bytes from the end: +01, +0100, +01:00.
        let sign = { (count: Int) in bytes.suffix(count).first.map { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") } == true }
        let hasOffset = bytes.last == UInt8(ascii: "Z") || bytes.last == UInt8(ascii: "z") || sign(3) || sign(5) || sign(6)
        guard hasOffset, bytes.count > 16 else { return nil }
        return try? ISO8601Reader.parse(text)
    }
}

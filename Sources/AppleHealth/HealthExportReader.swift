import JournalKit

/// Reads the caffeine samples of an Apple Health export: the `export.zip` the Health app writes, or
/// the `export.xml` in it. Streaming, in one pass: the zip's entry is inflated a chunk at a time and
/// each chunk scanned as it comes (`HealthXMLScanner`), and the drinks go to a staging database in
/// batches, so memory does not grow with the export, neither with its records nor its samples.
public enum HealthExportReader {
    /// What an export holds for the journal, besides the drinks staged.
    public struct Contents: Sendable {
        /// Caffeine samples read (of `--source`, when given), skipped ones too.
        public var samples = 0
        /// The samples that cannot be drinks that come first in the export, by the line they start on:
        /// what a person is shown.
        public private(set) var skipped: [SkippedRecord] = []
        /// All samples that cannot be drinks.
        public private(set) var skippedCount = 0
        /// Records of every kind in the export.
        public var recordsRead = 0
        /// Caffeine samples of other apps than `--source`.
        public var otherSources = 0
        /// The sleep analysis samples, of every app.
        public var sleepSamples: [SleepSample] = []
        /// The first sleep records that cannot be samples, apart from the caffeine's: `--all-or-nothing`
        /// speaks of drinks.
        public private(set) var sleepSkipped: [SkippedRecord] = []
        public private(set) var sleepSkippedCount = 0

        mutating func skipSleep(line: Int, reason: String) {
            sleepSkippedCount += 1
            if sleepSkipped.count < Self.skippedKept { sleepSkipped.append(SkippedRecord(line: line, reason: reason)) }
        }

        /// How many skipped samples are kept to be shown: ten million bad samples cost no more.
        public static let skippedKept = 20

        /// Counts a skipped sample, and keeps it if it is among the first in the export (samples
        /// read twice are found at its end).
        mutating func skip(line: Int, reason: String) {
            skippedCount += 1
            guard skipped.count < Self.skippedKept || line < skipped[skipped.count - 1].line else { return }
            skipped.insert(SkippedRecord(line: line, reason: reason), at: skipped.firstIndex { $0.line > line } ?? skipped.count)
            if skipped.count > Self.skippedKept { skipped.removeLast() }
        }
    }

    /// A caffeine sample that cannot be a drink, and why.
    public struct SkippedRecord: Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// Reads the export at `path` into `staging`: the drinks of the samples of `source` (all when
    /// nil), none ahead of `now`. `progress` hears the bytes read so far of how many (a zip's
    /// compressed bytes). Throws a `HealthImportError` for an export it cannot read.
    public static func read(
        _ path: String, source: String?, now: Timestamp, into staging: ImportStaging,
        progress: (_ done: Int64, _ total: Int64) -> Void = { _, _ in }
    ) throws -> Contents {
        let file = try ExportFile(path: path)
        var scanner = HealthXMLScanner()
        var collector = CaffeineRecordCollector(path: path, source: source, now: now, staging: staging)
        var malformed: HealthXMLError?
        do {
            try file.stream(progress: progress) { chunk in
                // After malformed XML past the first kilobyte of a zip, the rest is inflated unread:
                // only the zip's checksum, at its end, tells damage on the way from a file written so.
                // What is wrong from the start is refused at once, however much follows.
                guard malformed == nil else { return }
                do {
                    try scanner.scan(chunk) { try collector.take($0) }
                } catch let error as HealthXMLError {
                    guard case .malformed = error, file.isZip, scanner.isPastStart else { throw error }
                    malformed = error
                }
            }
            if let malformed { throw malformed }
            try scanner.finish { try collector.take($0) }
            try collector.finish()
        } catch let error as HealthXMLError {
            throw HealthImportError(error, path: path)
        }
        return collector.contents
    }
}

extension HealthImportError {
    init(_ error: HealthXMLError, path: String) {
        switch error {
        case .notXML(let reason): self = .notXML(path: path, reason: reason)
        case .encoding(let name): self = .encoding(path: path, encoding: name)
        case .malformed(let line, let problem): self = .malformed(path: path, line: line, problem: problem)
        }
    }
}

import Dispatch
import Foundation
import FoundationXML
import JournalKit
@preconcurrency import ZIPFoundation

import Glibc

/// Reads the caffeine samples of an Apple Health export: the `export.zip` the Health app writes, or
/// the `export.xml` in it. Streaming: the zip's entry is inflated a chunk at a time on a thread of its
/// own into a pipe, which the XML parser reads from, so memory does not grow with the export (only
/// with its caffeine samples). External entities are never loaded.
public enum HealthExportReader {
    /// What an export holds for the journal.
    public struct Contents: Sendable {
        public var drinks: [Drink] = []
        /// The drinks named for the apps that wrote samples of no catalog amount (`health-caffeine-app`).
        public var customDrinks: [CustomDrink] = []
        /// Samples that cannot be drinks, by the line they start on.
        public var skipped: [SkippedRecord] = []
        /// Records of every kind in the export.
        public var recordsRead = 0
        /// Caffeine samples of other apps than `--source`.
        public var otherSources = 0
    }

    /// A caffeine sample that cannot be a drink, and why.
    public struct SkippedRecord: Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// The export at `path`; `progress` hears the bytes read so far and how many there are.
    public static func read(
        _ path: String, source: String?, progress: @escaping (_ done: Int64, _ total: Int64) -> Void = { _, _ in }
    ) throws -> Contents {
        let file = try ExportFile(path: path)
        let collector = CaffeineRecordCollector(source: source)
        var filter = ExportFilter()
        var pending: [UInt8] = []
        var offset = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var done: Int64 = 0
        var ended = false
        let parser = XMLParser(stream: PullInputStream { buffer, length in
            while offset == pending.count {
                if ended { return 0 }
                pending.removeAll(keepingCapacity: true)
                offset = 0
                let count = chunk.withUnsafeMutableBytes { file.read(into: $0) }
                if count < 0 { return -1 }
                if count == 0 {
                    filter.finish(into: &pending)
                    ended = true
                } else {
                    done += Int64(count)
                    progress(done, file.size)
                    chunk.withUnsafeBytes { filter.filter(UnsafeRawBufferPointer(rebasing: $0[0..<count]), into: &pending) }
                }
            }
            let count = min(length, pending.count - offset)
            pending.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + offset, count: count) }
            offset += count
            return count
        })
        // The filter leaves no declaration to expand; should one get through, nothing outside is read.
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        parser.delegate = collector
        let parsed = parser.parse()
        try file.finish()
        if !parsed || collector.failure != nil {
            let failure = collector.failure ?? (parser.lineNumber, "the XML ends early or is malformed")
            throw HealthImportError.malformed(path: path, line: failure.line, problem: failure.message)
        }
        guard collector.sawHealthData else { throw HealthImportError.notAnExport(path: path) }
        return collector.contents
    }
}

import JournalKit

/// Takes the scanner's elements as they come, and stages what an export's caffeine samples become
/// (a drink, or why not, with the line it starts on), and keeps its sleep samples; every other record
/// of the export (millions of heart beats and steps) is counted and passed over. Nothing else grows
/// with the export: drinks go to the staging database, and of the samples skipped only the first few
/// reasons are kept, and a count. Sleep samples are kept whole, as nights are made of all of a night's
/// at once: a few dozen a night, ten years of a watch's (about 110,000) in some 8 MB.
struct CaffeineRecordCollector {
    /// The export, as messages name it.
    let path: String
    /// Only samples of this app (`--source`), compared ignoring case; nil for all.
    let source: String?
    /// "Now", which no sample may be ahead of.
    let now: Timestamp
    let staging: ImportStaging
    private(set) var contents = HealthExportReader.Contents()
    private var current: CaffeineRecord?

    init(path: String, source: String?, now: Timestamp, staging: ImportStaging) {
        self.path = path
        self.source = source?.lowercased()
        self.now = now
        self.staging = staging
    }

    static let syncIdentifierKey = Array("HKMetadataKeySyncIdentifier".utf8)

    /// Ends the export: a sample read again with another value is skipped.
    mutating func finish() throws {
        try staging.finish { conflict in
            contents.skip(line: conflict.line, reason: CaffeineRecord.reason(for: conflict))
        }
    }

    mutating func take(_ event: HealthXMLEvent) throws {
        switch event {
        case .start(let element):
            if element.depth == 1, element.kind != .healthData {
                throw HealthImportError.notAnExport(path: path, root: element.rootName ?? "")
            }
            switch element.kind {
            case .record: begin(element)
            case .metadataEntry:
                if current != nil, element.attributes.has(.key, Self.syncIdentifierKey) {
                    current?.syncIdentifier = element.attributes.value(.value)
                }
            case .healthData, .other: return
            }
        case .end(let kind):
            if kind == .record, let record = current {
                current = nil
                try end(record)
            }
        }
    }

    private mutating func begin(_ element: HealthXMLElement) {
        contents.recordsRead += 1
        if let sleep = SleepRecord.sample(element) {
            // Every source's: a night is counted from one, but lights-out may come from another's.
            switch sleep {
            case .success(let sample?): contents.sleepSamples.append(sample)
            case .success(nil): break
            case .failure(let skipped): contents.skipSleep(line: element.line, reason: skipped.reason)
            }
            return
        }
        guard let record = CaffeineRecord(element) else { return }
        if let source, record.sourceName.text.lowercased() != source {
            contents.otherSources += 1
            return
        }
        current = record
    }

    private mutating func end(_ record: CaffeineRecord) throws {
        contents.samples += 1
        switch record.drink(now: now) {
        case .drink(let drink, let kind):
            let custom = kind.isCustom ? CustomDrink(name: kind.name, caffeineMg: kind.caffeineMg) : nil
            try staging.stage(drink, line: record.line, label: record.syncIdentifier?.text, defining: custom)
        case .skipped(let reason):
            contents.skip(line: record.line, reason: reason)
        }
    }
}

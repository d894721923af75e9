import Foundation
import FoundationXML
import JournalKit

/// Reads an export's elements as the parser meets them and keeps what its caffeine samples become (a
/// drink, or why not, with the line it starts on); every other record of the export (millions of heart
/// beats and steps) is passed over without being kept.
final class CaffeineRecordCollector: NSObject, XMLParserDelegate {
    /// Only samples of this app (`--source`), compared ignoring case; nil for all.
    let source: String?
    private(set) var contents = HealthExportReader.Contents()
    /// The drinks named for apps, by name, with the amount of their first sample.
    private var appKinds: [String: CustomDrink] = [:]
    private var current: CaffeineRecord?
    /// The first thing the parser found wrong, with its line.
    private(set) var failure: (line: Int, message: String)?
    /// True once the export's root element, `HealthData`, was seen.
    private(set) var sawHealthData = false

    init(source: String?) {
        self.source = source
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if element == "HealthData" {
            sawHealthData = true
        } else if element == "Record" {
            contents.recordsRead += 1
            guard attributes["type"] == CaffeineRecord.type else { return }
            let sourceName = attributes["sourceName"] ?? ""
            if let source, sourceName.lowercased() != source.lowercased() {
                contents.otherSources += 1
                return
            }
            current = CaffeineRecord(
                line: parser.lineNumber, sourceName: sourceName, unit: attributes["unit"] ?? "", value: attributes["value"] ?? "",
                startDate: attributes["startDate"] ?? "", endDate: attributes["endDate"] ?? "",
                creationDate: attributes["creationDate"] ?? "")
        } else if element == "MetadataEntry", current != nil, attributes["key"] == "HKMetadataKeySyncIdentifier" {
            current?.syncIdentifier = attributes["value"]
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        guard element == "Record", let record = current else { return }
        current = nil
        switch record.drink() {
        case .drink(let drink, let kind):
            contents.drinks.append(drink)
            if kind.isCustom, appKinds[kind.name] == nil {
                appKinds[kind.name] = CustomDrink(name: kind.name, caffeineMg: kind.caffeineMg)
                contents.customDrinks.append(CustomDrink(name: kind.name, caffeineMg: kind.caffeineMg))
            }
        case .skipped(let reason):
            contents.skipped.append(HealthExportReader.SkippedRecord(line: record.line, reason: reason))
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
        if failure == nil { failure = (parser.lineNumber, (error as NSError).localizedDescription) }
    }
}

import Foundation
@preconcurrency import ZIPFoundation

/// An Apple Health export made by a test, as the Health app writes one: a large DTD whose attribute
/// lists have no defaults, records of many kinds, caffeine samples among them.
struct HealthExport {
    struct Sample {
        var source = "Coffee Tracker"
        var unit = "mg"
        var value = "64"
        var start = "2024-02-28 08:00:00 +0100"
        var syncIdentifier: String?
    }

    var samples: [Sample] = []
    /// Records of other kinds, before each sample.
    var otherRecordsPerSample = 2
    /// Extra text after the DTD (entity references, say).
    var body = ""
    /// The XML declaration the export starts with.
    var declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    /// Declarations added to the DTD's internal subset (entities, attribute lists).
    var declarations = ""

    static let doctype = """
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key   CDATA #REQUIRED
          value CDATA #REQUIRED
        >
        ]>
        """

    var xml: String {
        let doctype = Self.doctype.replacingOccurrences(of: "\n]>", with: "\n" + declarations + "]>")
        var text = declaration + "\n" + doctype + "\n<HealthData locale=\"en_US\">\n"
        text += " <ExportDate value=\"2024-03-01 10:00:00 +0100\"/>\n" + body
        for (index, sample) in samples.enumerated() {
            for other in 0..<otherRecordsPerSample {
                text += " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\u{0B}of Alice\" unit=\"count\" "
                    + "creationDate=\"2024-02-28 08:10:00 +0100\" startDate=\"2024-02-28 08:0\(other):00 +0100\" "
                    + "endDate=\"2024-02-28 08:05:00 +0100\" value=\"\(index * 10 + other)\"/>\n"
            }
            text += " <Record type=\"HKQuantityTypeIdentifierDietaryCaffeine\" sourceName=\"\(sample.source)\" sourceVersion=\"1.0\" "
                + "unit=\"\(sample.unit)\" creationDate=\"\(sample.start)\" startDate=\"\(sample.start)\" endDate=\"\(sample.start)\" "
                + "value=\"\(sample.value)\">\n"
            if let id = sample.syncIdentifier { text += "  <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"\(id)\"/>\n" }
            text += " </Record>\n"
        }
        return text + "</HealthData>\n"
    }

    /// The export as the Health app shares it: export.zip holding apple_health_export/export.xml.
    func writeZip(to path: String) throws {
        try Self.writeZip(Data(xml.utf8), to: path)
    }

    /// `data` as the export.xml of an export.zip.
    static func writeZip(_ data: Data, to path: String) throws {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        try archive.addEntry(with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(data.count),
                             compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    /// The line of the n-th caffeine sample (from 0) in `xml`.
    func line(ofSample n: Int) -> Int {
        var seen = -1
        for (index, line) in xml.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.contains("DietaryCaffeine") {
            seen += 1
            if seen == n { return index + 1 }
        }
        return -1
    }

    /// A day's sample at `minute` past 8:00, on day `day` of March 2024.
    static func sample(day: Int, minute: Int = 0, source: String = "Coffee Tracker", unit: String = "mg", value: String = "64") -> Sample {
        let start = String(format: "2024-03-%02d %02d:%02d:00 +0100", day, 8 + minute / 60, minute % 60)
        return Sample(source: source, unit: unit, value: value, start: start, syncIdentifier: "\(source)-\(day)-\(minute)")
    }
}

import Foundation
import Testing
import TestSupport
@preconcurrency import ZIPFoundation

/// An export.zip that cannot be read says why in words a person can act on: encrypted, compressed
/// with a method the importer does not read, damaged (by its checksum, not by the XML it garbles),
/// or not an XML document at all, which is said at once rather than after inflating all of it.
@Suite(.onTestThreads) struct AppleHealthZipTests {
    /// `zip` run in `folder` (the Debian package's, as a person would make such a zip).
    static func runZip(_ arguments: [String], in folder: String) throws {
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        let result = try ProcessRunner.run("/bin/sh", ["-c", "cd '\(folder)' && /usr/bin/zip -q \(quoted)"], environment: [:])
        guard result.status == 0 else { throw CLIFailure(result: result) }
    }

    /// `folder/apple_health_export/export.xml` holding `data`.
    static func writeExport(_ data: Data, in folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/apple_health_export", withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: folder + "/apple_health_export/export.xml"))
    }

    func imported(_ path: String, in folder: String) throws -> ProcessResult {
        try JournalCLI(home: folder + "/home").run("import", "--from", "apple-health", path)
    }

    @Test func anEncryptedZipIsSaidToBeEncrypted() async throws {
        try await withTemporaryDirectory { folder in
            var export = HealthExport()
            export.samples = [HealthExport.sample(day: 1)]
            try Self.writeExport(Data(export.xml.utf8), in: folder)
            try Self.runZip(["-P", "secret", "export.zip", "apple_health_export/export.xml"], in: folder)
            let result = try imported(folder + "/export.zip", in: folder)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("export.zip is encrypted: export it again without a password"), "\(result.stderr)")
        }
    }

    @Test func anEntryCompressedWithBzip2IsSaidToBeInAMethodNotRead() async throws {
        try await withTemporaryDirectory { folder in
            var export = HealthExport()
            export.samples = [HealthExport.sample(day: 1)]
            try Self.writeExport(Data(export.xml.utf8), in: folder)
            try Self.runZip(["-Z", "bzip2", "export.zip", "apple_health_export/export.xml"], in: folder)
            let result = try imported(folder + "/export.zip", in: folder)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(
                result.stderr.contains("apple_health_export/export.xml in it is compressed with a method this importer does not read (bzip2, method 12)"),
                "\(result.stderr)")
        }
    }

    /// A byte flipped inside the deflated data, where it still inflates but into other text: the
    /// checksum says the zip is damaged, where the XML parser would name a line of garbled XML.
    @Test func aFlippedByteIsCaughtByTheChecksumNotReportedAsBadXML() async throws {
        try await withTemporaryDirectory { folder in
            var export = HealthExport()
            export.samples = (0..<400).map { HealthExport.sample(day: 1 + $0 / 20, minute: $0 % 20) }
            try export.writeZip(to: folder + "/export.zip")
            let zipped = try Data(contentsOf: URL(fileURLWithPath: folder + "/export.zip"))
            let flipped = try #require(try Self.flippedCleanly(zipped, original: Data(export.xml.utf8)))
            try flipped.write(to: URL(fileURLWithPath: folder + "/flipped.zip"))
            let result = try imported(folder + "/flipped.zip", in: folder)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(
                result.stderr.contains("is damaged: apple_health_export/export.xml in it does not match its checksum"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("well-formed"), "\(result.stderr)")
        }
    }

    /// A zip whose directory gives its entry fewer compressed bytes than the deflated data needs: the
    /// inflater runs out of input before the data's last block, and the zip is damaged; nothing is
    /// imported.
    @Test func deflatedDataThatEndsBeforeItsLastBlockIsDamaged() async throws {
        try await withTemporaryDirectory { folder in
            var export = HealthExport()
            export.samples = (0..<400).map { HealthExport.sample(day: 1 + $0 / 20, minute: $0 % 20) }
            try export.writeZip(to: folder + "/export.zip")
            var zipped = try Data(contentsOf: URL(fileURLWithPath: folder + "/export.zip"))
            let (_, size) = try Self.compressedData(of: zipped)
            let directory = try #require(zipped.firstRange(of: Data([0x50, 0x4B, 0x01, 0x02]))).lowerBound
            for sizeField in [18, directory + 20] {
                for byte in 0..<4 { zipped[sizeField + byte] = UInt8(truncatingIfNeeded: (size - 40) >> (8 * byte)) }
            }
            try zipped.write(to: URL(fileURLWithPath: folder + "/short.zip"))
            let result = try imported(folder + "/short.zip", in: folder)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(
                result.stderr.contains("is damaged: apple_health_export/export.xml in it cannot be inflated: its compressed data is damaged"),
                "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: JournalCLI(home: folder + "/home").databasePath))
        }
    }

    /// 16 MiB of zero bytes as export.xml (or a start tag cut short by them), whose compressed data is
    /// damaged near its end: refused for what it begins with, so the importer never inflated as far
    /// as the damage.
    @Test(arguments: [("", "does not begin as an XML document (it begins with the bytes 00 00 00 00"),
                      ("<HealthData", "is not well-formed XML at line 1 (a zero byte")])
    func whatDoesNotBeginAsXMLIsRefusedAtOnce(start: String, message: String) async throws {
        try await withTemporaryDirectory { folder in
            try Self.writeExport(Data(start.utf8) + Data(count: 16 << 20), in: folder)
            try Self.runZip(["export.zip", "apple_health_export/export.xml"], in: folder)
            var zipped = try Data(contentsOf: URL(fileURLWithPath: folder + "/export.zip"))
            let (start, size) = try Self.compressedData(of: zipped)
            for offset in (start + size * 3 / 4)..<(start + size - 8) { zipped[offset] ^= 0x5A }
            try zipped.write(to: URL(fileURLWithPath: folder + "/export.zip"))
            for path in [folder + "/export.zip", folder + "/apple_health_export/export.xml"] {
                let result = try imported(path, in: folder)
                #expect(result.status == 65, "\(result.stderr)")
                #expect(result.stderr.contains(message), "\(result.stderr)")
                #expect(!result.stderr.contains("damaged"), "\(result.stderr)")
            }
        }
    }

    /// Where the first entry's compressed data starts in `zip`, and its length.
    static func compressedData(of zip: Data) throws -> (start: Int, size: Int) {
        let archive = try Archive(data: zip, accessMode: .read)
        let entry = try #require(archive.first { $0.path.hasSuffix("export.xml") })
        let nameLength = Int(zip[26]) | Int(zip[27]) << 8
        let extraLength = Int(zip[28]) | Int(zip[29]) << 8
        return (30 + nameLength + extraLength, Int(entry.compressedSize))
    }

    /// `archive` with one bit of its deflated data flipped, chosen so that the data still inflates
    /// without error, into text whose first difference from `original` is an attribute's quote (so
    /// the XML it becomes is not well-formed); nil if no such bit is found.
    static func flippedCleanly(_ archive: Data, original: Data) throws -> Data? {
        let (start, size) = try compressedData(of: archive)
        for offset in (start + size / 2)..<(start + size - 16) {
            for bit in 0..<8 {
                var bytes = archive
                bytes[offset] ^= UInt8(1 << bit)
                guard let inflated = inflate(bytes.subdata(in: start..<(start + size))), inflated != original,
                    let first = zip(inflated, original).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset,
                    original[first] == UInt8(ascii: "\"")
                else { continue }
                return bytes
            }
        }
        return nil
    }

    /// `compressed` inflated, or nil when inflating fails. ZIPFoundation's inflater takes its input in
    /// chunks of the buffer's size, so the one chunk is padded to it.
    static func inflate(_ compressed: Data) -> Data? {
        let padded = compressed + Data(count: 64)
        var given = false
        var output = Data()
        do {
            _ = try Data.decompress(size: Int64(padded.count), bufferSize: padded.count, skipCRC32: true, provider: { _, _ in
                guard !given else { throw CocoaError(.fileReadCorruptFile) }
                given = true
                return padded
            }, consumer: { output.append($0) })
        } catch {
            return nil
        }
        return output
    }
}

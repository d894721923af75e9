import Foundation
import Testing
import TestSupport

/// An Apple Health export is UTF-8, and its DTD is never read: whatever encoding an export declares,
/// whatever its document type declaration holds, nothing of it is expanded, and nothing crashes.
@Suite(.onTestThreads) struct AppleHealthEncodingTests {
    /// An export declaring `encoding` whose DTD lists an attribute with no default (what crashed
    /// libxml2's callback) and an internal entity, which its caffeine sample uses as its app's name.
    static func hostile(encoding: String) -> String {
        var export = HealthExport()
        export.declaration = "<?xml version=\"1.0\" encoding=\"\(encoding)\"?>"
        export.declarations = "<!ATTLIST Record x CDATA #IMPLIED>\n<!ENTITY int \"entity-expanded\">\n"
        export.samples = [HealthExport.Sample(source: "&int;", value: "77", start: "2024-03-01 08:00:00 +0100")]
        return export.xml
    }

    /// `data` in `encoding`, as iconv writes it.
    static func converted(_ data: Data, to encoding: String, in folder: String) throws -> Data {
        try data.write(to: URL(fileURLWithPath: folder + "/utf8"))
        let result = try ProcessRunner.run(
            "/usr/bin/iconv", ["-f", "UTF-8", "-t", encoding, "-o", folder + "/converted", folder + "/utf8"], environment: [:])
        guard result.status == 0 else { throw CLIFailure(result: result) }
        return try Data(contentsOf: URL(fileURLWithPath: folder + "/converted"))
    }

    @Test(arguments: ["UTF-7", "IBM037", "UTF-16"])
    func anExportInAnotherEncodingIsRefusedByNameAndItsEntitiesAreNeverExpanded(encoding: String) async throws {
        try await withTemporaryDirectory { folder in
            let utf8 = Data(Self.hostile(encoding: encoding).utf8)
            // The bytes of the encoding it declares (iconv's UTF-16 starts with a byte order mark); the
            // UTF-7 attack is ASCII text that declares UTF-7, which libxml2 took at its word.
            let bytes = encoding == "UTF-7" ? utf8 : try Self.converted(utf8, to: encoding, in: folder)
            try bytes.write(to: URL(fileURLWithPath: folder + "/export.xml"))
            try HealthExport.writeZip(bytes, to: folder + "/export.zip")
            let machine = JournalCLI(home: folder + "/home")
            for path in [folder + "/export.xml", folder + "/export.zip"] {
                let result = try machine.run("import", "--from", "apple-health", path)
                #expect(result.status == 65, "\(path): \(result.status) \(result.stderr.prefix(300))")
                #expect(result.stderr.contains("is in \(encoding), not UTF-8"), "\(path): \(result.stderr.prefix(300))")
            }
            // Refused before the journal was opened, so not even made.
            #expect(!FileManager.default.fileExists(atPath: machine.databasePath))
        }
    }

    @Test func anEntityTheDTDDeclaresIsAnErrorAtItsLineNeverItsText() async throws {
        try await withTemporaryDirectory { folder in
            let text = Self.hostile(encoding: "UTF-8")
            try text.write(toFile: folder + "/export.xml", atomically: true, encoding: .utf8)
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("&int;") }.map { $0 + 1 }
            let machine = JournalCLI(home: folder + "/home")
            let result = try machine.run("import", "--from", "apple-health", folder + "/export.xml")
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("is not well-formed XML at line \(line ?? 0)"), "\(result.stderr)")
            #expect(result.stderr.contains("&int;"), "\(result.stderr)")
            #expect(try !machine.run("drinks").stdout.contains("entity-expanded"))
        }
    }

    /// The DTD is passed over as one opaque declaration: what looks like its end inside a quoted
    /// value or a comment does not end it, and the records after it import.
    @Test func aDTDIsPassedOverWhateverItsSubsetHolds() async throws {
        try await withTemporaryDirectory { folder in
            var export = HealthExport()
            export.declarations = """
                <!ENTITY close "]>"><!ENTITY other ']> <HealthData>'>
                <!-- ]> a comment that looks like the end -->
                <?pi ]> ?>
                <!ATTLIST Record x CDATA #IMPLIED>

                """
            export.samples = (1...3).map { HealthExport.sample(day: $0) }
            try export.xml.write(toFile: folder + "/export.xml", atomically: true, encoding: .utf8)
            let machine = JournalCLI(home: folder + "/home")
            let result = try machine.run("import", "--from", "apple-health", folder + "/export.xml")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Imported 3 drinks from Apple Health"), "\(result.stdout)")
        }
    }

    /// The reader is the importer's own: libxml2 (FoundationXML), and the ICU and liblzma it brought,
    /// are linked by no program.
    @Test func theImporterLinksNoXMLLibrary() throws {
        for program in ["journal", "journal-syncd"] {
            let libraries = try ProcessRunner.run("/usr/bin/ldd", [ProcessRunner.executable(program)], environment: [:])
            #expect(libraries.status == 0 && libraries.stdout.contains("libc.so"), "\(libraries.stderr)")
            for library in ["libxml2", "FoundationXML", "libicuuc", "liblzma"] {
                #expect(!libraries.stdout.contains(library), "\(program) links \(library)")
            }
            let symbols = try ProcessRunner.run("/usr/bin/nm", [ProcessRunner.executable(program)], environment: [:]).stdout
            #expect(!symbols.contains("$s13FoundationXML"), "\(program) uses FoundationXML")
        }
    }
}

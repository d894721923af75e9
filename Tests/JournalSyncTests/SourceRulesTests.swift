import Foundation
import Testing
import TestSupport

/// Rules of the source tree that no compiler checks: a kind of hub is named only in its own modules
/// (so a new kind is one module, its words and one registration line), and the journal file's SQL
/// lives in JournalKit (the hub server's in PostgresHub).
@Suite(.onTestThreads) struct SourceRulesTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources").path

    /// The names that belong to one kind of hub: its schemes, its login files, its product.
    static let kindNames = "postgres|webdav|pgpass|netrc|\\bs3\\b|dav://|davs:"

    /// Where a kind may be named outside its modules: the registrations, the hidden options of
    /// earlier releases, and the name an earlier release gave the network drop-in.
    static let allowed: [(file: String, line: String)] = [
        ("KnownHubs/KnownHubs.swift", "import "),
        ("KnownHubs/KnownHubs.swift", "HubRegistry([FolderDriver(), PostgresDriver(), WebDAVDriver(), S3Driver()])"),
        ("KnownHubWords/KnownHubWords.swift", "import "),
        ("KnownHubWords/KnownHubWords.swift", "[FolderHubWords.self, PostgresHubWords.self, WebDAVHubWords.self, S3HubWords.self]"),
        ("SyncCommandLine/SyncInit.swift", "A PostgreSQL server, as libpq's connection string."),
        ("SyncCommandLine/SyncInit.swift", "public var postgres: String?"),
        ("SyncCommandLine/SyncInit.swift", "postgres.map { ($0, \"postgresql\") }"),
        ("SyncCommandLine/SyncInit.swift", "[hub, folder, postgres]"),
        ("journal-syncd/SyncCommands/ServiceNetworkDropIn.swift", "/postgres-hub.conf"),
    ]

    @Test func noKindOfHubIsNamedOutsideItsModules() throws {
        let kindNames = try Regex(Self.kindNames).ignoresCase()
        var found: [String] = []
        var lines = 0
        for (file, text) in try Self.swiftFiles() {
            let module = String(file.prefix { $0 != "/" })
            if ["FolderHub", "PostgresHub", "WebDAVHub", "S3Hub"].contains(where: { module.hasPrefix($0) }) { continue }
            for (number, code) in SwiftCode.linesOfCode(text) {
                lines += 1
                guard code.contains(kindNames) else { continue }
                if Self.allowed.contains(where: { file == $0.file && code.contains($0.line) }) { continue }
                found.append("\(file):\(number): \(code)")
            }
        }
        #expect(lines > 10_000)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func theJournalsSQLLivesInJournalKit() throws {
        let sql = try Regex("\\b(SELECT|INSERT INTO|DELETE FROM|CREATE TABLE|PRAGMA|UPDATE [a-z_]+ SET)\\b")
        var found: [String] = []
        for (file, text) in try Self.swiftFiles() where !file.hasPrefix("JournalKit/") && !file.hasPrefix("PostgresHub/") {
            for (number, code) in SwiftCode.linesOfCode(text) where code.contains(sql) {
                found.append("\(file):\(number): \(code)")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func commentsAreLeftOutAndStringsKept() {
        let text = #"""
            // postgres in a comment
            let a = "postgres" // and webdav after it
            let b = "a // in a string"
            let c = """
                // kept: a string's line
                """
            """#
        #expect(SwiftCode.linesOfCode(text).map(\.1) == [
            "let a = \"postgres\" ", "let b = \"a // in a string\"", "let c = \"\"\"", "    // kept: a string's line", "    \"\"\"",
        ])
    }

    /// Every Swift file under Sources, by its path there.
    static func swiftFiles() throws -> [(String, String)] {
        let files = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return try files.sorted().map { ($0, try String(contentsOfFile: sources + "/" + $0, encoding: .utf8)) }
    }
}

/// Swift source read as code and strings: comments left out (whole-line and trailing `//`, not inside
/// a string), multi-line strings kept whole.
enum SwiftCode {
    static func linesOfCode(_ text: String) -> [(Int, String)] {
        var result: [(Int, String)] = []
        var inMultiLineString = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if inMultiLineString {
                result.append((index + 1, String(line)))
                if trimmed.hasPrefix("\"\"\"") { inMultiLineString = false }
                continue
            }
            if trimmed.hasPrefix("//") || trimmed.isEmpty { continue }
            var code = ""
            var inString = false
            var characters = line.makeIterator()
            var previous: Character?
            while let character = characters.next() {
                if character == "\\", inString, let escaped = characters.next() {
                    code.append(character)
                    code.append(escaped)
                    previous = escaped
                    continue
                }
                if character == "\"" { inString.toggle() }
                if character == "/", previous == "/", !inString {
                    code.removeLast()
                    break
                }
                code.append(character)
                previous = character
            }
            if line.hasSuffix("\"\"\"") && !line.dropLast(3).contains("\"\"\"") { inMultiLineString = true }
            result.append((index + 1, code))
        }
        return result
    }
}

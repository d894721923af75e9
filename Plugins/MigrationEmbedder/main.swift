import Foundation

// Writes a Swift file holding the given migration files, after checking their names: v0001_what.sql,
// numbered from 1 without gaps, so a misnamed or missing migration fails the build, not a user's open.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

func swiftLiteral(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": literal += "\\\\"
        case "\"": literal += "\\\""
        case "\n": literal += "\\n"
        case "\r": literal += "\\r"
        case "\t": literal += "\\t"
        default:
            if scalar.value < 0x20 { literal += "\\u{\(String(scalar.value, radix: 16))}" } else { literal.unicodeScalars.append(scalar) }
        }
    }
    return literal + "\""
}

let arguments = CommandLine.arguments.dropFirst()
guard let outputPath = arguments.first else { fail("usage: MigrationEmbedder OUTPUT FILE...") }
var entries: [String] = []
for (index, path) in arguments.dropFirst().enumerated() {
    let name = URL(fileURLWithPath: path).lastPathComponent
    let pattern = #/^v(\d{4})_[a-z0-9_]+\.sql$/#
    guard let match = name.wholeMatch(of: pattern), let version = Int(match.1) else {
        fail("Migrations/\(name): name it v0001_what_it_does.sql (four digits, lowercase words)")
    }
    guard version == index + 1 else {
        fail("Migrations/\(name): expected version \(index + 1) here; versions start at 1 and have no gaps")
    }
    guard let sql = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path) as UTF-8") }
    entries.append("        Migration(version: \(version), name: \(swiftLiteral(name)), sql: \(swiftLiteral(sql))),")
}
let source = """
    // Generated from Migrations/ by the EmbedMigrations plugin; edit the .sql files instead.
    extension Migration {
        static let embedded: [Migration] = [
    \(entries.joined(separator: "\n"))
        ]
    }

    """
do {
    let existing = try? String(contentsOfFile: outputPath, encoding: .utf8)
    if existing != source { try source.write(toFile: outputPath, atomically: true, encoding: .utf8) }
} catch {
    fail("cannot write \(outputPath): \(error)")
}

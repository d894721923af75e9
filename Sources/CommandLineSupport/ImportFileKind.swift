import JournalKit

/// What a file given to `journal import` looks like, by its first bytes, and which `--from` reads it:
/// `journal import FILE` imports a file it recognises, and a file given with the wrong `--from` is
/// said as what it is, with the command that reads it.
public enum ImportFileKind: Equatable, Sendable {
    /// A zip archive: the Health app's export.zip.
    case zip
    /// The Health app's export.xml.
    case healthXML
    /// A journal export: JSON, or CSV with the export's header.
    case journalExport
    /// A CSV of sleep samples: `start,end,stage`.
    case sleepCSV
    /// Text of another kind, by its first line.
    case otherText(firstLine: String)
    /// Bytes that are no text (or none).
    case other

    /// How many bytes are looked at.
    public static let sniffedBytes = 4096

    /// The kind of a file that starts with `start`.
    public static func of(_ start: [UInt8]) -> ImportFileKind {
        if start.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .zip }
        // Cut anywhere, the first 4 KiB may end inside a character: the valid part is read.
        var text = Substring(String(decoding: start, as: UTF8.self))
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        text = text.drop { $0.isWhitespace }
        // Bytes that are not UTF-8 in the first line (another encoding, a binary file) are no text to quote.
        guard let first = text.first, !text.contains("\u{0}"), !firstLine(text).contains("\u{FFFD}") else { return .other }
        if first == "<" { return text.contains("<HealthData") || text.contains("<!DOCTYPE HealthData") ? .healthXML : .otherText(firstLine: firstLine(text)) }
        if first == "[" || first == "{" { return .journalExport }
        let header = firstLine(text).lowercased().split(separator: ",").map { $0.filter { $0 != "\"" }.trimmingSpaces }
        if header.starts(with: DrinkExchange.fields.prefix(2)) { return .journalExport }
        if header.starts(with: ["start", "end", "stage"]) { return .sleepCSV }
        return .otherText(firstLine: firstLine(text))
    }

    private static func firstLine(_ text: Substring) -> String {
        String(text.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" }.prefix(60))
    }

    /// The `--from` that reads it; nil for a file none does.
    public var origin: Import.Origin? {
        switch self {
        case .zip, .healthXML: .appleHealth
        case .journalExport: .journal
        case .sleepCSV: .sleepCSV
        case .otherText, .other: nil
        }
    }

    /// What it looks like, for a message: "a zip archive (the Health app's export.zip)".
    public var description: String {
        switch self {
        case .zip: "a zip archive (the Health app's export.zip)"
        case .healthXML: "an Apple Health export (export.xml)"
        case .journalExport: "a journal export"
        case .sleepCSV: "a sleep CSV (start,end,stage)"
        case .otherText(let line): "text whose first line is '\(TerminalText.quoted(line))'"
        case .other: "not text"
        }
    }
}

/// A file given to `journal import` with a `--from` that does not read it: what it looks like, and
/// the command that does (or what each `--from` takes).
public struct ImportFileMismatch: JournalFailure, Equatable {
    public let file: String
    public let looks: ImportFileKind
    /// The `--from` given; nil for none, when the file looked like nothing an import reads.
    public let given: Import.Origin?

    public var kind: FailureKind { .usage }

    public var description: String {
        let shown = TerminalText.quoted(file)
        let head = "\(shown) is \(looks.description), which " + (given.map { "--from \($0.rawValue)" } ?? "journal import") + " does not read"
        if file == "-", looks.origin == .appleHealth {
            return head + ": save it as a file and import it with journal import --from apple-health FILE."
        }
        if let origin = looks.origin {
            return head + ": import it with journal import" + (origin == .journal ? "" : " --from \(origin.rawValue)") + " \(ShellWord.quoted(file))."
        }
        return head + ". journal import reads a journal export (JSON or CSV); --from apple-health the Health app's export.zip; "
            + "--from sleep-csv a sleep tracker's samples as start,end,stage lines."
    }
}

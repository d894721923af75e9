import JournalKit

/// Why an Apple Health export could not be imported; nothing of it was.
public enum HealthImportError: JournalFailure, Equatable {
    case unreadable(path: String, reason: String)
    case notAFile(path: String)
    case damagedZip(path: String, reason: String)
    case noExportInZip(path: String)
    /// The zip needs a password.
    case encrypted(path: String)
    /// The zip's export.xml (`entry`) is compressed with `method`, neither stored nor deflated.
    case unsupportedCompression(path: String, entry: String, method: UInt16)
    /// Its first kilobyte is not the start of an XML document: why.
    case notXML(path: String, reason: String)
    /// It is in, or declares, `encoding`, not UTF-8.
    case encoding(path: String, encoding: String)
    case malformed(path: String, line: Int, problem: String)
    /// Its root element is `root`, not HealthData.
    case notAnExport(path: String, root: String)
    /// `--all-or-nothing`, and some samples cannot be drinks: the first of them, how many there are,
    /// and of how many samples.
    case samplesRefused([HealthExportReader.SkippedRecord], count: Int, of: Int)

    public var kind: FailureKind { .badData }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)."
        case .notAFile(let path):
            return "\(path) is not a regular file; give the export.zip the Health app wrote, or the export.xml in it."
        case .damagedZip(let path, let reason):
            return "the export \(path) is damaged: \(reason). Nothing was imported; export it again."
        case .noExportInZip(let path):
            return "\(path) holds no apple_health_export/export.xml: it is not the export.zip the Health app writes "
                + "(Profile, Export All Health Data)."
        case .encrypted(let path):
            return "\(path) is encrypted: export it again without a password (the Health app's export.zip has none), "
                + "or unzip it with its password and import its export.xml. Nothing was imported."
        case .unsupportedCompression(let path, let entry, let method):
            let name = Self.methodNames.first { $0.method == method }.map { "\($0.name), " } ?? ""
            return "\(path) cannot be read: \(TerminalText.quoted(entry)) in it is compressed with a method this importer does not "
                + "read (\(name)method \(method)); the Health app deflates its export.zip. Unzip it and import its export.xml. "
                + "Nothing was imported."
        case .notXML(let path, let reason):
            return "\(path) does not begin as an XML document (\(reason)): it is not an Apple Health export; nothing was imported."
        case .encoding(let path, let encoding):
            return "\(path) is in \(TerminalText.quoted(encoding)), not UTF-8: the importer reads UTF-8 exports only, as the "
                + "Health app writes them; nothing was imported."
        case .malformed(let path, let line, let problem):
            return "\(path) is not well-formed XML at line \(line) (\(problem)); nothing was imported. Export it again."
        case .notAnExport(let path, let root):
            return "\(path) is not an Apple Health export (its root element is <\(TerminalText.quoted(root))>, not <HealthData>); "
                + "nothing was imported."
        case .samplesRefused(let skipped, let count, let total):
            return "\(count) of \(total) caffeine samples cannot be drinks, so nothing was imported (--all-or-nothing):\n"
                + skipped.prefix(10).map { "  \($0)" }.joined(separator: "\n")
                + (count > 10 ? "\n  and \(count - 10) more" : "")
        }
    }

    /// The compression methods of the zip format (APPNOTE 4.4.5) that a zip tool may use.
    static let methodNames: [(method: UInt16, name: String)] = [
        (1, "shrink"), (6, "implode"), (9, "deflate64"), (12, "bzip2"), (14, "LZMA"), (93, "zstd"), (95, "xz"), (98, "PPMd"),
        (99, "AES encryption"),
    ]
}

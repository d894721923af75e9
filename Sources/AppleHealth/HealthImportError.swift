import JournalKit

/// Why an Apple Health export could not be imported; nothing of it was.
public enum HealthImportError: JournalFailure, Equatable {
    case unreadable(path: String, reason: String)
    case notAFile(path: String)
    case damagedZip(path: String, reason: String)
    case noExportInZip(path: String)
    case malformed(path: String, line: Int, problem: String)
    case notAnExport(path: String)
    /// `--all-or-nothing`, and some samples cannot be drinks.
    case samplesRefused([HealthExportReader.SkippedRecord], of: Int)

    public var kind: FailureKind { .badData }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)."
        case .notAFile(let path):
            return "\(path) is not a regular file; give the export.zip the Health app wrote, or the export.xml in it."
        case .damagedZip(let path, let reason):
            return "the export \(path.isEmpty ? "" : path + " ")is damaged: \(reason). Nothing was imported; export it again."
        case .noExportInZip(let path):
            return "\(path) holds no apple_health_export/export.xml: it is not the export.zip the Health app writes "
                + "(Profile, Export All Health Data)."
        case .malformed(let path, let line, let problem):
            return "\(path) is not well-formed XML at line \(line) (\(problem.trimmingSpaces)); nothing was imported. Export it again."
        case .notAnExport(let path):
            return "\(path) is not an Apple Health export (no HealthData in it); nothing was imported."
        case .samplesRefused(let skipped, let total):
            return "\(skipped.count) of \(total) caffeine samples cannot be drinks, so nothing was imported (--all-or-nothing):\n"
                + skipped.prefix(10).map { "  \($0)" }.joined(separator: "\n")
                + (skipped.count > 10 ? "\n  and \(skipped.count - 10) more" : "")
        }
    }
}

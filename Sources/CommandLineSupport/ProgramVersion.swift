import BuildVersion

/// What `--version` says: the version (the release number in the VERSION file) and the commit the
/// program was built from, as `make` found them.
public enum ProgramVersion {
    public static var version: String { String(cString: journal_version()) }
    public static var commit: String { String(cString: journal_commit()) }
    /// "journal 0.9.0 (commit 1a2b3c4d5e6f)", for `program`.
    public static func line(for program: String) -> String { "\(program) \(version) (commit \(commit))" }
}

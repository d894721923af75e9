import Glibc

/// Where the journal's files live, following the XDG base directory specification.
public struct JournalPaths: Sendable, Equatable {
    /// `$XDG_DATA_HOME/journal`, by default `~/.local/share/journal`.
    public let dataFolder: String
    /// `$XDG_CONFIG_HOME/journal`, by default `~/.config/journal`.
    public let configFolder: String

    public init(dataFolder: String, configFolder: String) {
        self.dataFolder = dataFolder
        self.configFolder = configFolder
    }

    /// The folders for the current environment.
    public static func fromEnvironment() throws(JournalPathError) -> JournalPaths {
        func base(_ variable: String, default relative: String) throws(JournalPathError) -> String {
            // The specification says relative values are invalid and must be ignored.
            if let value = environment(variable), value.hasPrefix("/") { return value }
            guard let home = environment("HOME"), home.hasPrefix("/") else { throw JournalPathError.noHome }
            return home + "/" + relative
        }
        return JournalPaths(
            dataFolder: try base("XDG_DATA_HOME", default: ".local/share") + "/journal",
            configFolder: try base("XDG_CONFIG_HOME", default: ".config") + "/journal")
    }

    public var defaultDatabase: String { dataFolder + "/journal.db" }

    /// The database `--db`, else `JOURNAL_DB`, else the default names.
    public static func database(explicit: String?) throws(JournalPathError) -> String {
        if let explicit, !explicit.isEmpty { return try usable(explicit) }
        if let variable = environment("JOURNAL_DB"), !variable.isEmpty { return try usable(variable) }
        return try fromEnvironment().defaultDatabase
    }

    /// SQLite takes ":memory:" for a database that vanishes at exit, not a file: nothing would be kept.
    private static func usable(_ path: String) throws(JournalPathError) -> String {
        guard path != ":memory:" else { throw JournalPathError.notAFile(path) }
        return path
    }

    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// Why the journal's folders cannot be found.
public enum JournalPathError: JournalFailure, Equatable {
    case noHome
    case notAFile(String)

    public var kind: FailureKind { self == .noHome ? .failure : .usage }
    public var remedy: Remedy? { .chooseDatabase }

    public var description: String {
        switch self {
        case .noHome: return "cannot tell where the journal lives: HOME is not set to an absolute path."
        case .notAFile(let path): return "'\(path)' is not a file: a journal is kept in a file, such as ./journal.db."
        }
    }
}

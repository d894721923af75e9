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
        JournalPaths(dataFolder: try dataHome() + "/journal", configFolder: try configHome() + "/journal")
    }

    /// `$XDG_CONFIG_HOME`, by default `~/.config`: where the journal's settings live, and systemd's
    /// user units.
    public static func configHome() throws(JournalPathError) -> String { try base("XDG_CONFIG_HOME", default: ".config") }

    /// `$XDG_DATA_HOME`, by default `~/.local/share`.
    public static func dataHome() throws(JournalPathError) -> String { try base("XDG_DATA_HOME", default: ".local/share") }

    private static func base(_ variable: String, default relative: String) throws(JournalPathError) -> String {
        // The specification says relative values are invalid and must be ignored.
        if let value = environment(variable), value.hasPrefix("/") { return value }
        guard let home = environment("HOME"), home.hasPrefix("/") else { throw JournalPathError.noHome }
        return home + "/" + relative
    }

    public var defaultDatabase: String { dataFolder + "/journal.db" }
    /// The settings a person changed: `config.toml`.
    public var settings: String { configFolder + "/config.toml" }
    /// The hub's key: `sync.key`, 0600.
    public var syncKey: String { configFolder + "/sync.key" }
    /// A hub's login, asked for at `sync init` and kept 0600 beside the key, in the file its kind names
    /// (`NAME` is the hub module's: a password file, a `.netrc`).
    public func hubLogin(_ name: String) -> String { configFolder + "/" + name }
    /// A device's own private keys (to receive hub keys, and to sign what it writes): 0600, beside the
    /// hub's key, one file per device id, so two journals of one user are two devices.
    public func deviceKeys(of device: DeviceID) -> String { configFolder + "/device-" + device.rawValue + ".key" }

    /// The sync lock of the journal at `database`: one sync per journal at a time.
    public static func syncLock(forDatabase database: String) -> String { database + ".sync-lock" }
    /// The daemon's lock of the journal at `database`, which holds its process id.
    public static func daemonLock(forDatabase database: String) -> String { database + ".syncd-lock" }
    /// What SQLite keeps beside a database in WAL mode, or while it rolls back a transaction.
    public static let sqliteCompanionSuffixes = ["-wal", "-shm", "-journal"]

    /// Every file of the journal at `database` and of this environment's configuration: what a backup
    /// must never be written over, each with what it is for a message: the configuration folder's
    /// every file (each device's keys, a hub's login, whatever its kind), and, by `protectedFolders`,
    /// any name in it yet to be made.
    public static func files(ofDatabase database: String) -> [(path: String, what: String)] {
        var files = [(database, "the journal")]
            + [(database + "-wal", "the journal's write-ahead log"), (database + "-shm", "the journal's shared-memory index"),
               (database + "-journal", "the journal's rollback journal")]
            + [(syncLock(forDatabase: database), "the journal's sync lock"), (daemonLock(forDatabase: database), "the sync daemon's lock")]
        if let paths = try? fromEnvironment() {
            files += [(paths.syncKey, "the sync key"), (paths.settings, "the settings")]
            // Whatever else is there, by its inode too: a link to it elsewhere is refused as well.
            let named = Set(files.map(\.0))
            for name in (try? FileSystem.list(paths.configFolder)) ?? [] where !named.contains(paths.configFolder + "/" + name) {
                files.append((paths.configFolder + "/" + name, "a file of the journal's configuration (\(name))"))
            }
        }
        return files
    }

    /// Folders no backup is written into, each with what it is for a message: the configuration
    /// folder holds the keys and the hubs' logins, by names this library does not know.
    public static func protectedFolders() -> [(path: String, what: String)] {
        guard let paths = try? fromEnvironment() else { return [] }
        return [(paths.configFolder, "the journal's configuration folder, with its keys and logins")]
    }

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

    /// `path` as a person reads it: `~/.config/journal/config.toml` for one in their home, shorter
    /// for a narrow table and the same for a shell to take back.
    public static func shown(_ path: String) -> String {
        guard let home = environment("HOME"), home.hasPrefix("/"), home.count > 1 else { return path }
        let folder = home.hasSuffix("/") ? home : home + "/"
        return path.hasPrefix(folder) ? "~/" + path.dropFirst(folder.count) : path
    }

    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `environment` as journal-syncd has it: a systemd user service is given HOME, and none of the
    /// variables a person's shell sets (what a hub reads from them, `sync init` records or warns of).
    public static func asTheServiceHasIt(_ environment: @escaping @Sendable (String) -> String?) -> @Sendable (String) -> String? {
        { name in name == "HOME" ? environment(name) : nil }
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

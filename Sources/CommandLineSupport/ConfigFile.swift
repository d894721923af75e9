import JournalKit

/// `$XDG_CONFIG_HOME/journal/config.toml`: the settings this machine keeps to itself, each checked
/// (`SettingsFile`). They win here over the settings that sync (`SyncedSetting`, which `journal
/// config` writes), which win over the defaults. No file is fine.
public struct ConfigFile: Sendable {
    /// Where a setting's value in effect came from.
    public enum Source: Equatable, Sendable {
        case builtInDefault
        /// Set for every machine, in the journal.
        case synced
        /// Set for this machine alone, on this line of the file.
        case file(line: Int)
    }

    public let path: String
    /// The file's settings, the defaults where it has none.
    public let settings: JournalSettings
    /// The line each setting the file has is on.
    public let lines: [(key: JournalSettings.Key, line: Int)]

    /// The settings in effect: this file's where it has them, the synced ones (`synced`, from the
    /// journal) elsewhere, the defaults where neither says.
    public func inEffect(synced: [SyncedSetting]) -> JournalSettings {
        JournalSettings.inEffect(synced: synced, local: settings, localKeys: lines.map(\.key))
    }

    /// Where `key`'s value in effect came from, with `synced` the journal's settings.
    public func source(of key: JournalSettings.Key, synced: [SyncedSetting]) -> Source {
        if let line = lines.first(where: { $0.key == key })?.line { return .file(line: line) }
        return synced.contains { $0.known?.key == key } ? .synced : .builtInDefault
    }

    /// A settings file is a few lines; anything near this is not one.
    public static let sizeLimit = 64 * 1024

    public static func defaultPath() throws -> String {
        try JournalPaths.fromEnvironment().settings
    }

    /// The file at `path` (the default one when nil); the defaults alone when there is none.
    public static func load(path: String? = nil) throws -> ConfigFile {
        let path = try path ?? defaultPath()
        guard FileSystem.exists(path) else { return ConfigFile(path: path, settings: .defaults, lines: []) }
        let parsed = try SettingsFile.parse(try bytes(at: path), path: path)
        return ConfigFile(path: path, settings: parsed.settings, lines: parsed.lines)
    }

    /// The file at `path` (the default one when nil) as far as it can be read: its settings from the
    /// lines that are settings, and each line that is not (`journal config` shows the one and names
    /// the other, as `git config --list` would).
    public static func loadKeepingGoodLines(path: String? = nil) throws -> (config: ConfigFile, problems: [SettingsError]) {
        let path = try path ?? defaultPath()
        guard FileSystem.exists(path) else { return (ConfigFile(path: path, settings: .defaults, lines: []), []) }
        let read = try SettingsFile.read(try bytes(at: path), path: path)
        return (ConfigFile(path: path, settings: read.settings, lines: read.lines), read.problems)
    }

    /// The file's bytes, within its size limit.
    public static func bytes(at path: String) throws -> [UInt8] {
        do {
            return try FileBytes.read(path, limit: Self.sizeLimit, what: "a settings file")
        } catch {
            throw SettingsError(path: path, line: nil, key: nil, problem: error.description)
        }
    }

    /// Writes `bytes` as the file at `path`: a settings file that is a link (a dotfiles manager's) is
    /// changed where it leads, with the permissions it has, and the link stays a link.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        if let existing = FileSystem.resolved(path) {
            try FileSystem.writeAtomically(bytes, to: existing.path, mode: existing.mode)
        } else {
            try FileSystem.makeFolders(FileSystem.parentFolder(of: path), mode: 0o700)
            try FileSystem.writeAtomically(bytes, to: path, mode: 0o644)
        }
    }
}

import CommandLineSupport
import JournalKit

/// `$XDG_CONFIG_HOME/journal/config.toml`: the settings a person changed, each checked
/// (`SettingsFile`). No file is fine: the defaults hold.
struct ConfigFile {
    /// Where a setting's value came from.
    enum Source: Equatable {
        case builtInDefault
        case file(line: Int)
    }

    let path: String
    let settings: JournalSettings
    /// The line each setting the file has is on.
    let lines: [(key: JournalSettings.Key, line: Int)]

    /// Where `key`'s value came from.
    func source(of key: JournalSettings.Key) -> Source {
        lines.first { $0.key == key }.map { .file(line: $0.line) } ?? .builtInDefault
    }

    /// A settings file is a few lines; anything near this is not one.
    static let sizeLimit = 64 * 1024

    static func defaultPath() throws -> String {
        try JournalPaths.fromEnvironment().settings
    }

    /// The settings in effect: the file's where it has them, the defaults elsewhere.
    static func load(path: String? = nil) throws -> ConfigFile {
        let path = try path ?? defaultPath()
        guard FileSystem.exists(path) else { return ConfigFile(path: path, settings: .defaults, lines: []) }
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: Self.sizeLimit, what: "a settings file")
        } catch {
            throw SettingsError(path: path, line: nil, key: nil, problem: error.description)
        }
        let parsed = try SettingsFile.parse(bytes, path: path)
        return ConfigFile(path: path, settings: parsed.settings, lines: parsed.lines)
    }
}

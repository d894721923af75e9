import JournalKit
import TOMLKit

/// `$XDG_CONFIG_HOME/journal/config.toml`: the settings a person changed, each checked. A bad value or
/// an unknown key is an error naming the key and the line, never a silent default.
struct ConfigFile {
    /// Where a setting's value came from.
    enum Source: Equatable {
        case builtInDefault
        case file(line: Int)
    }

    let path: String
    let settings: JournalSettings
    let sources: [JournalSettings.Key: Source]

    /// A settings file is a few lines; anything near this is not one.
    static let sizeLimit = 64 * 1024

    static func defaultPath() throws -> String {
        try JournalPaths.fromEnvironment().configFolder + "/config.toml"
    }

    /// The settings in effect: the file's where it has them, the defaults elsewhere. No file is fine.
    static func load(path: String? = nil) throws -> ConfigFile {
        let path = try path ?? defaultPath()
        var settings = JournalSettings.defaults
        var sources: [JournalSettings.Key: Source] = [:]
        for key in JournalSettings.Key.allCases { sources[key] = .builtInDefault }
        guard FileSystem.exists(path) else { return ConfigFile(path: path, settings: settings, sources: sources) }

        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: Self.sizeLimit, what: "a settings file")
        } catch {
            throw SettingsError(path: path, line: nil, key: nil, problem: error.description)
        }
        // TOML is UTF-8 text: a NUL would hide the rest of the file from the parser, and repaired
        // bytes would be settings nobody wrote.
        if let nul = bytes.firstIndex(of: 0) {
            let line = bytes[..<nul].filter { $0 == 10 }.count + 1
            throw SettingsError(path: path, line: line, key: nil, problem: "it holds a NUL byte, which a settings file cannot")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw SettingsError(path: path, line: nil, key: nil, problem: "it is not UTF-8 text")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw SettingsError(path: path, line: error.source.begin.line, key: nil, problem: "this is not valid TOML (\(error.description))")
        }
        var problems: [SettingsError] = []
        for (name, value) in table {
            let line = Self.line(defining: name, in: text)
            guard let key = JournalSettings.Key(rawValue: name) else {
                problems.append(SettingsError(path: path, line: line, key: name, problem: "there is no such setting"))
                continue
            }
            guard let number = value.double ?? value.int.map(Double.init), number.isFinite else {
                problems.append(SettingsError(
                    path: path, line: line, key: name,
                    problem: "it must be a number of \(key.unit), such as \(name) = \(formatMilligrams(key.defaultValue))"))
                continue
            }
            guard key.allowed.contains(number) else {
                problems.append(SettingsError(
                    path: path, line: line, key: name,
                    problem: "\(formatExactly(number)) is out of range: use \(formatMilligrams(key.allowed.lowerBound)) to "
                        + "\(formatMilligrams(key.allowed.upperBound)) \(key.unit)"))
                continue
            }
            settings[key] = number
            sources[key] = .file(line: line ?? 0)
        }
        // Report the first problem in the file, as a person reads it.
        if let first = problems.min(by: { ($0.line ?? .max) < ($1.line ?? .max) }) { throw first }
        return ConfigFile(path: path, settings: settings, sources: sources)
    }

    /// The line that sets top-level key `name` (TOMLKit does not say where a key is).
    static func line(defining name: String, in text: String) -> Int? {
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = Substring(rawLine.drop(while: { $0 == " " || $0 == "\t" }))
            if line.hasPrefix("[") && line.dropFirst().hasPrefix(name) { return number }
            for quote in ["\"", "'"] where line.hasPrefix(quote) {
                line = line.dropFirst()
                guard line.hasPrefix(name), line.dropFirst(name.count).hasPrefix(quote) else { continue }
                line = line.dropFirst(name.count + 1)
                return line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("=") ? number : nil
            }
            guard line.hasPrefix(name) else { continue }
            let rest = line.dropFirst(name.count).drop(while: { $0 == " " || $0 == "\t" })
            if rest.hasPrefix("=") || rest.hasPrefix(".") { return number }
        }
        return nil
    }
}

import JournalKit

/// The AWS shared files every AWS tool reads, `~/.aws/credentials` and `~/.aws/config` (or the files
/// `AWS_SHARED_CREDENTIALS_FILE` and `AWS_CONFIG_FILE` name): INI sections of `key = value` lines, a
/// profile's section named `[NAME]` in the first, `[profile NAME]` (or `[default]`) in the second, and
/// `[services NAME]` there too. A `KEY =` line with no value opens settings of its own, indented below
/// it (`s3 =` then `  endpoint_url = ...`): kept as `KEY.SETTING`, never taken for the section's own.
/// Read only when they are their owner's alone (`PrivateFile`): anyone who can read them has the keys.
struct AWSProfiles: Sendable {
    /// Each section's settings, by the profile's name (a services section's by "services NAME").
    let profiles: [String: [String: String]]

    /// The most either file can be.
    static let limit = 256 * 1024

    /// The settings of `profile`: the credentials file's, over the config file's.
    static func settings(of profile: String, credentialsFile: String?, configFile: String?) throws -> [String: String] {
        let credentials = try credentialsFile.flatMap { try read($0, config: false) }?.profiles[profile] ?? [:]
        let config = try configFile.flatMap { try read($0, config: true) }?.profiles[profile] ?? [:]
        return config.merging(credentials) { _, fromCredentials in fromCredentials }
    }

    /// The settings of the services section `name` in the config file.
    static func services(_ name: String, configFile: String?) throws -> [String: String] {
        try configFile.flatMap { try read($0, config: true) }?.profiles["services " + name] ?? [:]
    }

    /// The file at `path`; nil when there is none. `config`: sections are `[profile NAME]`.
    static func read(_ path: String, config: Bool) throws -> AWSProfiles? {
        guard let bytes = try PrivateFile.read(
            path, limit: limit, what: "the AWS credentials file", exposure: "anyone who reads it can use your storage as you")
        else { return nil }
        return AWSProfiles(text: String(decoding: bytes, as: UTF8.self), config: config)
    }

    /// The sections of `text`: keys lowercase, values trimmed; comment lines (`#`, `;`) and lines of
    /// no section skipped.
    init(text: String, config: Bool) {
        var profiles: [String: [String: String]] = [:]
        var section: String?
        /// The `KEY =` whose indented settings follow.
        var nested: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: " \t")
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            let indented = raw.first == " " || raw.first == "\t"
            if !indented { nested = nil }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = line.dropFirst().dropLast().trimmingCharacters(in: " \t")
                if !config || name == "default" {
                    section = name
                } else if name.hasPrefix("profile ") {
                    section = name.dropFirst("profile ".count).trimmingCharacters(in: " \t")
                } else if name.hasPrefix("services ") {
                    section = "services " + name.dropFirst("services ".count).trimmingCharacters(in: " \t")
                } else {
                    section = nil
                }
                continue
            }
            guard let section, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: " \t").lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: " \t")
            if indented, let nested {
                profiles[section, default: [:]][nested + "." + key] = value
            } else if !indented, value.isEmpty {
                nested = key
            } else {
                // An indented setting under no `KEY =` is the section's own, as it always was.
                profiles[section, default: [:]][key] = value
            }
        }
        self.profiles = profiles
    }
}

extension StringProtocol {
    /// The text without `characters` at either end.
    fileprivate func trimmingCharacters(in characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}

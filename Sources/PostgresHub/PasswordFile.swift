import JournalKit

/// libpq's password file: lines `hostname:port:database:username:password`, `*` matching anything,
/// `\:` and `\\` for a colon or backslash in a field, `#` starting a comment. Read where libpq reads
/// it (the connection's `passfile`, else `PGPASSFILE`, else `~/.pgpass`), then the journal's own
/// (`$XDG_CONFIG_HOME/journal/postgres.pgpass`, where a password asked for at `sync init` is kept).
/// Each is used only when it is its owner's alone (`PrivateFile`).
public struct PasswordFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The most a password file can be.
    static let limit = 64 * 1024

    /// The files to look in for `location`, in order.
    static func candidates(for location: PostgresLocation) -> [PasswordFile] {
        var files: [PasswordFile] = []
        if let passFile = location.passFile {
            files.append(PasswordFile(path: passFile))
        } else if let home = JournalPaths.environment("HOME"), home.hasPrefix("/") {
            files.append(PasswordFile(path: home + "/.pgpass"))
        }
        if let own = journalsOwn() { files.append(own) }
        return files
    }

    /// `$XDG_CONFIG_HOME/journal/postgres.pgpass`, beside the sync key.
    static func journalsOwn() -> PasswordFile? {
        (try? JournalPaths.fromEnvironment()).map { PasswordFile(path: $0.hubLogin("postgres.pgpass")) }
    }

    /// The password of the first line matching `location`, if the file has one.
    func password(for location: PostgresLocation) throws -> String? {
        guard let bytes = try PrivateFile.read(
            path, limit: Self.limit, what: "the password file", exposure: "anyone who reads it can log in to the server as you")
        else { return nil }
        let hosts = location.isSocket ? [location.host, "localhost"] : [location.host]
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) where !line.hasPrefix("#") {
            let fields = Self.fields(of: line)
            guard fields.count == 5 else { continue }
            func matches(_ field: String, _ values: [String]) -> Bool { field == "*" || values.contains(field) }
            if matches(fields[0], hosts), matches(fields[1], [String(location.port)]), matches(fields[2], [location.database]),
                matches(fields[3], [location.user])
            {
                return fields[4]
            }
        }
        return nil
    }

    /// Adds a line for `location` to this file, made 0600 (its folder 0700) when missing.
    func save(_ password: String, for location: PostgresLocation) throws {
        let existing = try PrivateFile.read(
            path, limit: Self.limit, what: "the password file", exposure: "anyone who reads it can log in to the server as you") ?? []
        let host = location.isSocket ? "localhost" : location.host
        let line = [host, String(location.port), location.database, location.user, password].map(Self.escaped).joined(separator: ":")
        var text = String(decoding: existing, as: UTF8.self)
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        text += "# journal sync init, for \(location.uri)\n" + line + "\n"
        try PrivateFile.write(Array(text.utf8), to: path)
    }

    /// A line's fields, `\` taking the next character as it is.
    static func fields(of line: Substring) -> [String] {
        var fields: [String] = [""]
        var escaping = false
        for character in line where character != "\r" {
            if escaping {
                fields[fields.count - 1].append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == ":" {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        return fields
    }

    static func escaped(_ field: String) -> String {
        var escaped = ""
        for character in field {
            if character == "\\" || character == ":" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

import JournalKit

/// libpq's two ways of writing a connection, read into their settings: the URI
/// `postgresql://[user[:password]@][host][:port][/dbname][?key=value&...]`, percent-encoded, and
/// the key/value list `host=... dbname='my db'`, with single quotes and backslash escapes.
enum ConnectionString {
    /// The settings of a URI; a password in it is refused (it would be stored, shown and logged).
    static func uriSettings(_ text: String) throws(PostgresHubError) -> [String: String] {
        var rest = Substring(text)
        rest = rest.drop(while: { $0 != ":" }).dropFirst(3)
        var settings: [String: String] = [:]
        if let mark = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: "=") else { throw .badConnectionString("\"\(pair)\" is not key=value") }
                let key = try decoded(pair[..<equals])
                guard settings[key] == nil else { throw .badConnectionString("\(key) is given twice") }
                settings[key] = try decoded(pair[pair.index(after: equals)...])
            }
            rest = rest[..<mark]
        }
        let authority: Substring
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            let database = rest[rest.index(after: slash)...]
            if !database.isEmpty { try set("dbname", try decoded(database), in: &settings) }
        } else {
            authority = rest
        }
        var hostPart = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if userInfo.contains(":") { throw .passwordInConnectionString }
            if !userInfo.isEmpty { try set("user", try decoded(userInfo), in: &settings) }
            hostPart = authority[authority.index(after: at)...]
        }
        // libpq's list of servers, "h1:5432,h2:5433", is kept as its lists of hosts and ports: the
        // location refuses it with both in view.
        var hosts: [String] = [], ports: [String] = []
        for server in hostPart.split(separator: ",", omittingEmptySubsequences: false) {
            let (host, port) = try hostAndPort(server)
            hosts.append(host)
            ports.append(port)
        }
        if hosts.contains(where: { !$0.isEmpty }) { try set("host", hosts.joined(separator: ","), in: &settings) }
        // An empty port ("localhost:/db") is no port, as in libpq: a port parameter may give it.
        if ports.contains(where: { !$0.isEmpty }) { try set("port", ports.joined(separator: ","), in: &settings) }
        return settings
    }

    /// One server of a URI's authority: "host", "host:port", "[v6 address]:port"; "" for what is missing.
    private static func hostAndPort(_ server: Substring) throws(PostgresHubError) -> (host: String, port: String) {
        guard server.hasPrefix("[") else {
            let pieces = server.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            return (try decoded(pieces[0]), pieces.count == 2 ? try decoded(pieces[1]) : "")
        }
        guard let close = server.firstIndex(of: "]") else { throw .badConnectionString("an IPv6 address lacks its \"]\"") }
        let after = server[server.index(after: close)...]
        guard after.isEmpty || after.hasPrefix(":") else { throw .badConnectionString("\"\(after)\" follows the IPv6 address") }
        return (String(server[server.index(after: server.startIndex)..<close]), String(after.dropFirst()))
    }

    /// Whitespace as libpq's `isspace` sees it: what separates the pairs of a key/value list.
    static func isSpace(_ character: Character) -> Bool {
        // "\r\n" is one Character: each of its scalars is a space.
        character.unicodeScalars.allSatisfy { " \t\n\u{0B}\u{0C}\r".unicodeScalars.contains($0) }
    }

    /// The settings of a key/value list: `key = value` pairs separated by whitespace; a value in single
    /// quotes may hold spaces, and `\'` and `\\` within it.
    static func keywordSettings(_ text: String) throws(PostgresHubError) -> [String: String] {
        var settings: [String: String] = [:]
        var characters = Array(text)[...]
        func skipSpaces() { while let first = characters.first, isSpace(first) { characters.removeFirst() } }
        while true {
            skipSpaces()
            guard !characters.isEmpty else { return settings }
            let key = String(characters.prefix(while: { $0 != "=" && !isSpace($0) }))
            characters.removeFirst(key.count)
            skipSpaces()
            guard !key.isEmpty, characters.first == "=" else {
                throw .badConnectionString("\"\(key)\" lacks \"= value\" (write key=value, or a postgresql:// URI)")
            }
            characters.removeFirst()
            skipSpaces()
            var value = ""
            if characters.first == "'" {
                characters.removeFirst()
                var closed = false
                while let character = characters.popFirst() {
                    if character == "\\", let escaped = characters.popFirst() {
                        value.append(escaped)
                    } else if character == "'" {
                        closed = true
                        break
                    } else {
                        value.append(character)
                    }
                }
                guard closed else { throw .badConnectionString("the value of \(key) lacks its closing quote") }
            } else {
                while let character = characters.first, !isSpace(character) {
                    characters.removeFirst()
                    if character == "\\", let escaped = characters.popFirst() { value.append(escaped) } else { value.append(character) }
                }
            }
            try set(key, value, in: &settings)
        }
    }

    private static func set(_ key: String, _ value: String, in settings: inout [String: String]) throws(PostgresHubError) {
        guard settings[key] == nil else { throw .badConnectionString("\(key) is given twice") }
        settings[key] = value
    }

    /// Percent-decoded UTF-8; a malformed escape is refused.
    static func decoded(_ text: Substring) throws(PostgresHubError) -> String {
        guard let decoded = PercentEncoding.decoded(text) else {
            throw .badConnectionString("\"\(text)\" has a malformed %-escape, or is not text once decoded")
        }
        return decoded
    }
}

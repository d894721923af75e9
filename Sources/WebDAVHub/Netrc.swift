import JournalKit

/// A `.netrc` file, as curl and git read it: `machine HOST login USER password PASSWORD` entries
/// (tokens split by white space; a token in double quotes may hold spaces and `\"`, `\\`, `\n`, `\t`),
/// `default` for any host, `account` ignored, `macdef NAME` to the next blank line skipped, `#` to the
/// end of a line a comment. Used only when its owner's alone (`PrivateFile`), as ftp and Python's
/// netrc insist and curl does not: a password file others can read is refused, not read.
struct Netrc: Sendable {
    struct Entry: Sendable, Equatable {
        /// Nil for `default`.
        var machine: String?
        var login: String?
        var password: String?
    }

    let path: String
    let entries: [Entry]

    /// The most a `.netrc` can be.
    static let limit = 256 * 1024

    /// The file at `path`; nil when there is none.
    static func read(_ path: String) throws -> Netrc? {
        guard let bytes = try PrivateFile.read(
            path, limit: limit, what: "the credentials file", exposure: "anyone who reads it can sign in to your servers as you")
        else { return nil }
        return Netrc(path: path, text: String(decoding: bytes, as: UTF8.self))
    }

    init(path: String, text: String) {
        self.path = path
        entries = Self.entries(Self.tokens(text))
    }

    /// The login and password for `host` (any port): the first `machine` entry for it whose login is
    /// `user` (any login when `user` is nil), else (`fallingBackToDefault`) `default`'s. Nil when none
    /// has a password.
    func credentials(host: String, user: String?, fallingBackToDefault: Bool = true) -> (login: String, password: String)? {
        let host = host.lowercased()
        let fitting = entries.filter { ($0.machine == nil || $0.machine?.lowercased() == host) && (user == nil || $0.login == user) }
        let defaults = fallingBackToDefault ? fitting.filter({ $0.machine == nil }) : []
        for entry in fitting.filter({ $0.machine != nil }) + defaults {
            guard let password = entry.password, let login = user ?? entry.login else { continue }
            return (login, password)
        }
        return nil
    }

    /// A line for `host`, `login` and `password`, each quoted where it must be.
    static func line(host: String, login: String, password: String) -> String {
        "machine \(quoted(host)) login \(quoted(login)) password \(quoted(password))\n"
    }

    private static func quoted(_ token: String) -> String {
        guard token.isEmpty || token.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "\\" || $0 == "#" }) else { return token }
        var text = "\""
        for character in token {
            switch character {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default: text.append(character)
            }
        }
        return text + "\""
    }

    /// The file's tokens; `macdef` bodies and comments left out.
    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            var characters = Substring(line).makeIterator()
            var current: String?
            var lineTokens: [String] = []
            var quoted = false
            while let character = characters.next() {
                if quoted {
                    if character == "\"" {
                        quoted = false
                    } else if character == "\\", let next = characters.next() {
                        switch next {
                        case "n": current?.append("\n")
                        case "r": current?.append("\r")
                        case "t": current?.append("\t")
                        default: current?.append(next)
                        }
                    } else {
                        current?.append(character)
                    }
                } else if character == "\"", current == nil {
                    // Only a token's first character opens quotes, as in curl.
                    quoted = true
                    current = ""
                } else if character.isWhitespace {
                    if let token = current { lineTokens.append(token) }
                    current = nil
                } else if character == "#", current == nil {
                    break
                } else {
                    current = (current ?? "") + String(character)
                }
            }
            if let token = current { lineTokens.append(token) }
            tokens += lineTokens
            // A macro's body runs to the next blank line.
            if lineTokens.count >= 2, lineTokens[lineTokens.count - 2] == "macdef" || lineTokens.last == "macdef" {
                while index < lines.count, !lines[index].allSatisfy(\.isWhitespace) { index += 1 }
            }
        }
        return tokens
    }

    private static func entries(_ tokens: [String]) -> [Entry] {
        var entries: [Entry] = []
        var current: Entry?
        var index = 0
        func value() -> String? {
            guard index + 1 < tokens.count else { return nil }
            index += 1
            return tokens[index]
        }
        while index < tokens.count {
            switch tokens[index] {
            case "machine":
                if let current { entries.append(current) }
                current = Entry(machine: value() ?? "")
            case "default":
                if let current { entries.append(current) }
                current = Entry(machine: nil)
            case "login": current?.login = value()
            case "password": current?.password = value()
            case "account", "macdef": _ = value()
            default: break
            }
            index += 1
        }
        if let current { entries.append(current) }
        return entries
    }
}

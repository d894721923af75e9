import JournalKit
import Synchronization

/// The login for a hub's server, found where curl and git find one (`$NETRC`, else `~/.netrc`), then in
/// the journal's own `webdav.netrc` beside the sync key; or asked for on a terminal at `sync init` and,
/// once the server took it, kept in the journal's own file. Never on a command line, in the config, a
/// message or a log.
final class DAVCredentials: Sendable {
    /// A login with where it came from, for the message when the server refuses it.
    struct Found: Sendable {
        let login: String
        let password: String
        let source: String
    }

    let location: DAVLocation
    /// Asks the person for the password (`sync init` on a terminal); nil where no one can answer.
    private let ask: (@Sendable (String) -> String?)?
    /// The login in use: found, or asked for; kept for this process's later requests.
    private let current = Mutex<Found?>(nil)
    /// True once the server took `current`: a password asked for is then kept.
    private let accepted = Mutex(false)

    init(location: DAVLocation, ask: (@Sendable (String) -> String?)?) {
        self.location = location
        self.ask = ask
    }

    /// The files looked in, in order.
    static func files() -> [String] {
        var files: [String] = []
        if let variable = JournalPaths.environment("NETRC"), variable.hasPrefix("/") {
            files.append(variable)
        } else if let home = JournalPaths.environment("HOME"), home.hasPrefix("/") {
            files.append(home + "/.netrc")
        }
        if let own = journalsOwn() { files.append(own) }
        return files
    }

    /// `$XDG_CONFIG_HOME/journal/webdav.netrc`, where a password asked for at `sync init` is kept.
    static func journalsOwn() -> String? {
        (try? JournalPaths.fromEnvironment()).map(\.webDAVLogin)
    }

    /// The login to send: the one in use, else the first the files have; nil when none has one (the
    /// server may ask for none).
    func known() throws -> Found? {
        if let found = current.withLock({ $0 }) { return found }
        for path in Self.files() {
            guard let file = try Netrc.read(path), let entry = file.credentials(host: location.host, user: location.user) else { continue }
            let found = Found(login: entry.login, password: entry.password, source: path)
            current.withLock { $0 = found }
            return found
        }
        return nil
    }

    /// What a 401 means: the login in use refused, or none given; a person at a terminal is asked once.
    func refused() throws -> Found {
        if let tried = current.withLock({ $0 }) {
            throw DAVHubError.credentialsRefused(user: tried.login, server: location.server, source: tried.source)
        }
        guard let ask, let user = location.user, let typed = ask("Password for \(user) on \(location.server): "), !typed.isEmpty else {
            throw DAVHubError.credentialsRequired(server: location.server, looked: Self.files())
        }
        let found = Found(login: user, password: typed, source: "the prompt")
        current.withLock { $0 = found }
        return found
    }

    /// The server took the login: a password asked for is kept in the journal's own file, so that the
    /// daemon and later syncs have it.
    func succeeded() throws {
        guard let found = current.withLock({ $0 }), !accepted.withLock({ $0 }) else { return }
        accepted.withLock { $0 = true }
        guard found.source == "the prompt", let path = Self.journalsOwn() else { return }
        let existing = try PrivateFile.read(
            path, limit: Netrc.limit, what: "the credentials file", exposure: "anyone who reads it can sign in to your servers as you") ?? []
        var text = String(decoding: existing, as: UTF8.self)
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        text += "# journal sync init, for \(location.uri)\n" + Netrc.line(host: location.host, login: found.login, password: found.password)
        try PrivateFile.write(Array(text.utf8), to: path)
    }
}

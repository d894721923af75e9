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
        let source: Source
    }

    /// Where a login came from.
    enum Source: Sendable, Equatable, CustomStringConvertible {
        case file(String)
        case prompt

        var description: String {
            switch self {
            case .file(let path): path
            case .prompt: "the prompt"
            }
        }
    }

    let location: DAVLocation
    /// Asks the person for the password (`sync init` on a terminal); nil where no one can answer.
    private let ask: (@Sendable (String) -> String?)?
    /// The login in use: found, or asked for; kept for this process's later requests.
    private let current = Mutex<Found?>(nil)
    /// True once the server took `current`: a password asked for is then kept.
    private let accepted = Mutex(false)
    /// The files looked in, in order.
    let files: [String]

    init(location: DAVLocation, ask: (@Sendable (String) -> String?)?, files: [String] = DAVCredentials.files()) {
        self.location = location
        self.ask = ask
        self.files = files
    }

    /// The files a person's login is looked for in, in order, as `environment` names them.
    static func files(environment: (String) -> String? = JournalPaths.environment) -> [String] {
        var files: [String] = []
        if let variable = environment("NETRC"), variable.hasPrefix("/") {
            files.append(variable)
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            files.append(home + "/.netrc")
        }
        if let own = journalsOwn() { files.append(own) }
        return files
    }

    /// `$XDG_CONFIG_HOME/journal/webdav.netrc`, where a password asked for at `sync init` is kept.
    static func journalsOwn() -> String? {
        (try? JournalPaths.fromEnvironment()).map { $0.hubLogin("webdav.netrc") }
    }

    /// The login to send: the one in use, else the one the files have; nil when none has one (the
    /// server may ask for none).
    func known() throws -> Found? {
        if let found = current.withLock({ $0 }) { return found }
        let found = try inFiles()
        current.withLock { $0 = found }
        return found
    }

    /// The login the files have now: a `machine` entry for the host in any of them before a `default`
    /// in any (so that a `default` in ~/.netrc does not shadow what `sync init` kept).
    private func inFiles() throws -> Found? {
        let read = try files.compactMap { path in try Netrc.read(path).map { (path, $0) } }
        for defaults in [false, true] {
            for (path, file) in read {
                if let entry = file.credentials(host: location.host, user: location.user, fallingBackToDefault: defaults) {
                    return Found(login: entry.login, password: entry.password, source: .file(path))
                }
            }
        }
        return nil
    }

    /// What journal-syncd, which sees none of this shell's variables (`NETRC`), would sign in with,
    /// against the login a file gave this process: nil when the same (or none was needed, or the
    /// login was typed, which is kept where the service looks).
    func serviceWarning() -> String? {
        guard let used = current.withLock({ $0 }), case .file(let path) = used.source else { return nil }
        let looked = Self.files(environment: JournalPaths.asTheServiceHasIt { JournalPaths.environment($0) })
        let finds: String
        switch Result(catching: { try DAVCredentials(location: location, ask: nil, files: looked).inFiles() }) {
        case .success(let there?) where there.login == used.login && there.password == used.password: return nil
        case .success(let there?): finds = "would sign in as \(there.login) from \(there.source)"
        case .success(nil): finds = "finds no login for \(location.host) in \(looked.joined(separator: " or "))"
        case .failure(let error): finds = "cannot read a login there: \(error)"
        }
        return "journal-syncd, the background service, does not see this shell's NETRC (\(path)), and \(finds): put the login in "
            + "\(looked.first ?? "~/.netrc") (chmod 600); until then only `journal sync` run from a shell like this one signs in with it."
    }

    /// What a 401 means: the login in use refused (tried again once when the files now say another),
    /// or none given (a person at a terminal is asked once).
    func refused() throws -> Found {
        if let tried = current.withLock({ $0 }) {
            if tried.source != .prompt, let now = try inFiles(), now.password != tried.password || now.login != tried.login {
                current.withLock { $0 = now }
                return now
            }
            throw DAVHubError.credentialsRefused(user: tried.login, server: location.server, source: tried.source.description)
        }
        guard let ask, let user = location.user, let typed = ask("Password for \(user) on \(location.server): "), !typed.isEmpty else {
            throw DAVHubError.credentialsRequired(server: location.server, looked: files)
        }
        let found = Found(login: user, password: typed, source: .prompt)
        current.withLock { $0 = found }
        return found
    }

    /// The error for a login refused after every try.
    func refusedForGood() -> DAVHubError {
        let tried = current.withLock { $0 }
        return .credentialsRefused(user: tried?.login ?? location.user ?? "", server: location.server, source: tried?.source.description ?? "nowhere")
    }

    /// The server took the login: a password asked for is kept in the journal's own file, so that the
    /// daemon and later syncs have it.
    func succeeded() throws {
        guard let found = current.withLock({ $0 }), !accepted.withLock({ $0 }) else { return }
        accepted.withLock { $0 = true }
        guard found.source == .prompt, let path = Self.journalsOwn() else { return }
        let existing = try PrivateFile.read(
            path, limit: Netrc.limit, what: "the credentials file", exposure: "anyone who reads it can sign in to your servers as you") ?? []
        var text = String(decoding: existing, as: UTF8.self)
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        text += "# journal sync init, for \(location.uri)\n" + Netrc.line(host: location.host, login: found.login, password: found.password)
        try PrivateFile.write(Array(text.utf8), to: path)
    }
}

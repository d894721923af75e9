import JournalKit
import Synchronization

/// The password for a hub's server, found as libpq finds one (the connection's `passfile`, else
/// `PGPASSFILE` or `~/.pgpass`, then the journal's own `postgres.pgpass`), or asked for on a terminal
/// at `sync init` and then kept in the journal's own file. Never in a message or a log.
final class ServerPassword: Sendable {
    /// A password with where it came from, for the message when the server refuses it.
    struct Found: Sendable {
        let text: String
        let source: String
    }

    let location: PostgresLocation
    /// Asks the person for the password (`sync init` on a terminal); nil where no one can answer.
    private let ask: (@Sendable (String) -> String?)?
    /// A password asked for and accepted, kept for later connections of this process.
    private let asked = Mutex<String?>(nil)

    init(location: PostgresLocation, ask: (@Sendable (String) -> String?)?) {
        self.location = location
        self.ask = ask
    }

    /// The password already known: asked for earlier in this process, or in a password file.
    func known() throws -> Found? {
        if let typed = asked.withLock({ $0 }) { return Found(text: typed, source: "the prompt") }
        for file in PasswordFile.candidates(for: location) {
            if let found = try file.password(for: location) { return Found(text: found, source: file.path) }
        }
        return nil
    }

    /// Asks the person, when someone can answer; refused as missing otherwise.
    func prompt() throws -> Found {
        let looked = PasswordFile.candidates(for: location).map(\.path)
        guard let ask, let typed = ask("Password for \(location.user) on \(location.server): "), !typed.isEmpty else {
            throw PostgresHubError.passwordRequired(user: location.user, server: location.server, looked: looked)
        }
        return Found(text: typed, source: "the prompt")
    }

    /// Keeps a password the server accepted: for this process, and in the journal's own file.
    func keep(_ password: Found) throws {
        asked.withLock { $0 = password.text }
        try PasswordFile.journalsOwn()?.save(password.text, for: location)
    }
}

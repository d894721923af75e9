import Foundation
import Synchronization

/// A real PostgreSQL server for the tests (Debian's `postgresql` package): made by `initdb` in a
/// temporary folder, listening on a loopback port and on a Unix socket in that folder, with TLS from a
/// certificate authority made here (the server's certificate is for "localhost" only unless a test asks
/// for other names), and scram passwords for every role but the fixture's own superuser. It runs as the
/// `postgres` user when the tests run as root (the server refuses root). A watcher started with it stops it and removes its
/// folder when the test process ends, however it ends: a failed test, a crash, a kill.
public final class PostgresServer: Sendable {
    public let folder: String
    public let port: Int
    public let tls: Bool
    /// The certificate authority that signed the server's certificate: sslrootcert for the tests.
    public let authority: String
    private let binaries: String
    private let runAs: [String]
    private let accessRules = Mutex(AccessRuleBook())

    /// One server with TLS for the whole test process, started on first use.
    public static let shared: PostgresServer = {
        do { return try PostgresServer(tls: true) } catch { fatalError("cannot start the test PostgreSQL server: \(error)") }
    }()

    /// A new server; `tls: false` makes one that offers no TLS. Its certificate has `subject` and the
    /// subjectAltName `altNames` (none when nil), in openssl's words: "/CN=db", "DNS:db,IP:10.0.0.5".
    public init(tls: Bool, subject: String = "/CN=localhost", altNames: String? = "DNS:localhost") throws {
        let folder = NSTemporaryDirectory() + "journal-pg-" + UUID().uuidString.prefix(8).lowercased()
        self.folder = folder
        self.tls = tls
        authority = folder + "/ca.crt"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.compactMap(Int.init).max() else { throw FixtureError("no /usr/lib/postgresql/*/bin: install postgresql") }
        binaries = "/usr/lib/postgresql/\(version)/bin"
        runAs = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"] : []
        port = Self.freePort()
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        try Self.makeCertificates(in: folder, subject: subject, altNames: altNames)
        if getuid() == 0 { try Self.shell("chown -R postgres:postgres '\(folder)' && chmod 700 '\(folder)/data'") }
        try run([binaries + "/initdb", "-D", folder + "/data", "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256",
                 "-E", "UTF8", "--no-sync"])
        let settings = """
            listen_addresses = 'localhost'
            port = \(port)
            unix_socket_directories = '\(folder)'
            ssl = \(tls ? "on" : "off")
            ssl_cert_file = '\(folder)/server.crt'
            ssl_key_file = '\(folder)/server.key'
            # Client certificates signed by the test authority are trusted, for pg_hba.conf's `cert`.
            ssl_ca_file = '\(folder)/ca.crt'
            fsync = off
            max_connections = 200
            log_min_messages = warning
            # The tests run in parallel on two cores, and many block Swift's small thread pool waiting
            # for processes: a test's half-made connection can wait there past the default 60 s.
            authentication_timeout = 600

            """
        try append(settings, to: folder + "/data/postgresql.conf")
        try start()
        try waitUntilReady()
        try psql("ALTER ROLE postgres PASSWORD 'fixture-superuser'")
    }

    /// Starts the server, with a watcher that stops it when this process ends.
    public func start() throws {
        let server = (runAs + [binaries + "/postgres", "-D", folder + "/data"]).map { "'\($0)'" }.joined(separator: " ")
        // A server a test stopped keeps its folder until the test process ends.
        try ServerWatcher.launch(
            server, log: folder + "/server.log", pidFile: folder + "/server.pid", stop: "kill -INT $server", removing: folder)
        let deadline = ContinuousClock.now + .seconds(60)
        while !FileManager.default.fileExists(atPath: folder + "/server.pid") {
            guard ContinuousClock.now < deadline else { throw FixtureError("the server's watcher did not start within 60 s") }
            usleep(20_000)
        }
    }

    /// Stops the server (fast shutdown: connections are cut), leaving its data.
    public func stop() throws {
        guard let text = try? String(contentsOfFile: folder + "/server.pid", encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        try? FileManager.default.removeItem(atPath: folder + "/server.pid")
        kill(pid, SIGINT)
        // A server still shutting down would keep its port and data from the next start.
        let deadline = ContinuousClock.now + .seconds(60)
        while kill(pid, 0) == 0 {
            guard ContinuousClock.now < deadline else { throw FixtureError("the server (pid \(pid)) did not stop within 60 s") }
            usleep(20_000)
        }
    }

    /// Stops and starts the server again: every connection is cut, and notifications sent meanwhile are lost.
    public func restart() throws {
        try stop()
        try start()
        try waitUntilReady()
    }

    /// Runs SQL as the fixture's superuser on `database`; the output, tuples only, unaligned.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres", role: String = "postgres") throws -> String {
        let result = try ProcessRunner.run(
            "/usr/bin/psql", ["-h", folder, "-p", String(port), "-U", role, "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql],
            environment: ["PGPASSWORD": role == "postgres" ? "fixture-superuser" : "secret-\(role)", "PGCONNECT_TIMEOUT": "5"])
        guard result.status == 0 else { throw FixtureError("psql: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Has the server read its configuration files again, and returns once a new connection is made
    /// under what they say now. `pg_reload_conf()` only signals the server: a connection opened before
    /// the postmaster has read pg_hba.conf again is let in, or turned away, by the old rules.
    public func reloadConfiguration() throws {
        let loaded = try psql("SELECT pg_conf_load_time()")
        try psql("SELECT pg_reload_conf()")
        let deadline = ContinuousClock.now + .seconds(60)
        while try psql("SELECT pg_conf_load_time()") == loaded {
            guard ContinuousClock.now < deadline else { throw FixtureError("the server did not read its configuration again within 60 s") }
            usleep(10_000)
        }
    }

    /// pg_hba.conf rules a test has put before the server's own, until it takes them away.
    public struct AccessRules: Sendable {
        fileprivate let id: Int
    }

    private struct AccessRuleBook {
        var original: String?
        var next = 0
        var active: [(id: Int, lines: String)] = []
    }

    /// Puts `lines` before pg_hba.conf's rules and has the server read them, beside the rules other
    /// tests on the same server have put: tests run at once, and one that wrote the file back as it
    /// had read it would take away another's rules.
    public func addAccessRules(_ lines: String) throws -> AccessRules {
        try accessRules.withLock { book in
            book.next += 1
            book.active.append((book.next, lines.hasSuffix("\n") ? lines : lines + "\n"))
            try writeAccessRules(&book)
            return AccessRules(id: book.next)
        }
    }

    /// Takes away rules `addAccessRules` put, and has the server read what is left.
    public func removeAccessRules(_ rules: AccessRules) throws {
        try accessRules.withLock { book in
            book.active.removeAll { $0.id == rules.id }
            try writeAccessRules(&book)
        }
    }

    private func writeAccessRules(_ book: inout AccessRuleBook) throws {
        let file = folder + "/data/pg_hba.conf"
        let original = try book.original ?? String(contentsOfFile: file, encoding: .utf8)
        book.original = original
        try (book.active.map(\.lines).joined() + original).write(toFile: file, atomically: true, encoding: .utf8)
        try reloadConfiguration()
    }

    /// Runs a file of SQL as psql -f runs it, as the fixture's superuser on `database`, stopping at the
    /// first error; the output, tuples only.
    @discardableResult
    public func psql(file: String, database: String) throws -> String {
        let result = try ProcessRunner.run(
            "/usr/bin/psql", ["-h", folder, "-p", String(port), "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-f", file],
            environment: ["PGPASSWORD": "fixture-superuser", "PGCONNECT_TIMEOUT": "5"])
        guard result.status == 0 else { throw FixtureError("psql: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new database and a role owning nothing but the right to use it (CONNECT and CREATE, as the
    /// README tells a DBA to grant), with the password "secret-ROLE". Names are unique per call.
    public func makeDatabase(prefix: String = "journal") throws -> (database: String, role: String) {
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let database = "\(prefix)_\(suffix)", role = "alice_\(suffix)"
        try psql("CREATE ROLE \(role) LOGIN PASSWORD 'secret-\(role)'")
        try psql("CREATE DATABASE \(database)")
        try psql("REVOKE ALL ON DATABASE \(database) FROM PUBLIC; GRANT CONNECT, CREATE ON DATABASE \(database) TO \(role)")
        return (database, role)
    }

    /// A new database and role (`makeDatabase`), the role's password in `folder/pgpass` (0600), and a
    /// connection string over TCP (`uri`) that names that file.
    public func makeDatabase(passwordFileIn folder: String) throws -> (database: String, role: String, uri: String) {
        let (database, role) = try makeDatabase()
        return (database, role, uri(database: database, role: role) + "&passfile=" + (try writePasswordFile(role: role, in: folder)))
    }

    /// A password file in `folder` (0600, named `name`) giving `role`'s password: its path, for a
    /// connection string's passfile.
    public func writePasswordFile(role: String, in folder: String, name: String = "pgpass") throws -> String {
        let path = folder + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: Data(passwordLine(role: role).utf8), attributes: [.posixPermissions: 0o600])
        else { throw FixtureError("cannot write \(path)") }
        return path
    }

    /// A connection string for `role` on `database`: over TCP to "localhost" with the test authority by
    /// default, or over the Unix socket. The connect timeout is generous: the whole test suite runs at
    /// once on two cores.
    public func uri(database: String, role: String, socket: Bool = false, sslmode: String = "verify-full", host: String = "localhost") -> String {
        if socket {
            return "postgresql://\(role)@/\(database)?host=\(folder.replacingOccurrences(of: "/", with: "%2F"))&port=\(port)&connect_timeout=60"
        }
        return "postgresql://\(role)@\(host):\(port)/\(database)?sslmode=\(sslmode)&sslrootcert=\(authority)&connect_timeout=60"
    }

    /// A `.pgpass` line giving `role`'s password for any host, port and database.
    public func passwordLine(role: String) -> String { "*:*:*:\(role):secret-\(role)\n" }

    /// A port nothing listens on now.
    public static func freePort() -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 ? getsockname(socket, $0, &length) : -1 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private func waitUntilReady() throws {
        for _ in 0..<300 {
            let result = try ProcessRunner.run(binaries + "/pg_isready", ["-h", folder, "-p", String(port), "-q"], environment: [:])
            if result.status == 0 { return }
            usleep(50_000)
        }
        let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
        throw FixtureError("the test PostgreSQL server did not start:\n\(log)")
    }

    private func run(_ arguments: [String]) throws {
        let result = try ProcessRunner.run((runAs + arguments)[0], Array((runAs + arguments).dropFirst()), environment: [:])
        guard result.status == 0 else { throw FixtureError("\(arguments[0]): \(result.stdout)\(result.stderr)") }
    }

    private func append(_ text: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// A certificate authority, and a server certificate it signed (the WebDAV servers' too).
    static func makeCertificates(in folder: String, subject: String, altNames: String?) throws {
        try shell("""
            cd '\(folder)' &&
            openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj '/CN=journal test authority' -keyout ca.key -out ca.crt &&
            openssl req -newkey rsa:2048 -nodes -subj '\(subject)' -keyout server.key -out server.csr &&
            printf '\(altNames.map { "subjectAltName=\($0)" } ?? "")\\n' > san.ext &&
            openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out server.crt &&
            chmod 600 server.key && chmod 644 ca.crt
            """)
    }

    static func shell(_ script: String) throws {
        let result = try ProcessRunner.run("/bin/sh", ["-c", script], environment: [:])
        guard result.status == 0 else { throw FixtureError("\(script): \(result.stderr)") }
    }
}

/// A test fixture that could not be set up.
public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

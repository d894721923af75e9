import Foundation

import Glibc

/// A real PgBouncer (Debian's package) in front of a test server, for one role and its database, in a
/// folder of its own; stopped by `stop()`, and by its watcher when the test process ends, also when a
/// test fails. Clients reach it over TCP on 127.0.0.1, without TLS unless asked; it reaches the server
/// over the server's Unix socket.
public final class PgBouncer: Sendable {
    /// How PgBouncer hands server connections to clients.
    public enum PoolMode: String, Sendable {
        /// A server connection for each client session: LISTEN works.
        case session
        /// A server connection for each transaction only: a LISTEN's notifications go to whoever has
        /// that server connection next, or nowhere (PgBouncer's default on some managed services).
        case transaction
    }

    public let folder: String
    public let port: Int
    private let runAs: [String]
    /// The server's authority, when clients reach the pooler over TLS with the server's certificate.
    private let authority: String?

    /// With `tls`, clients reach the pooler over TLS only, with the server's own certificate (for
    /// localhost), while the pooler reaches the server over its Unix socket without: the two links
    /// differ, as a managed service's pooler and server may.
    public init(in parent: String, server: PostgresServer, role: String, mode: PoolMode, tls: Bool = false) throws {
        folder = parent + "/pgbouncer"
        port = PostgresServer.freePort()
        authority = tls ? server.authority : nil
        runAs = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"] : []
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let settings = """
            [databases]
            * = host=\(server.folder) port=\(server.port)

            [pgbouncer]
            listen_addr = 127.0.0.1
            listen_port = \(port)
            unix_socket_dir =
            auth_type = scram-sha-256
            auth_file = \(folder)/users.txt
            pool_mode = \(mode.rawValue)
            default_pool_size = 10
            max_client_conn = 50
            logfile = \(folder)/pgbouncer.log
            pidfile = \(folder)/pgbouncer.pid
            ignore_startup_parameters = extra_float_digits

            """ + (tls ? """
            client_tls_sslmode = require
            client_tls_cert_file = \(server.folder)/server.crt
            client_tls_key_file = \(server.folder)/server.key

            """ : "")
        try settings.write(toFile: folder + "/pgbouncer.ini", atomically: true, encoding: .utf8)
        try "\"\(role)\" \"secret-\(role)\"\n".write(toFile: folder + "/users.txt", atomically: true, encoding: .utf8)
        if getuid() == 0 { try PostgresServer.shell("chown -R postgres:postgres '\(folder)' && chmod 700 '\(folder)'") }
        try start()
    }

    /// A connection string for `role` on `database` through the pooler.
    public func uri(database: String, role: String) -> String {
        if let authority {
            return "postgresql://\(role)@localhost:\(port)/\(database)?sslmode=verify-full&sslrootcert=\(authority)&connect_timeout=60"
        }
        return "postgresql://\(role)@127.0.0.1:\(port)/\(database)?sslmode=disable&connect_timeout=60"
    }

    private func start() throws {
        let bouncer = (runAs + ["/usr/sbin/pgbouncer", folder + "/pgbouncer.ini"]).map { "'\($0)'" }.joined(separator: " ")
        try ServerWatcher.launch(
            bouncer, log: folder + "/stderr.log", pidFile: folder + "/watched.pid", stop: "kill -KILL $server", removing: nil)
        // Ready when it takes connections.
        for _ in 0..<500 {
            if Self.accepts(port: port) { return }
            usleep(20_000)
        }
        let log = (try? String(contentsOfFile: folder + "/pgbouncer.log", encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: folder + "/stderr.log", encoding: .utf8)) ?? ""
        throw FixtureError("pgbouncer did not start:\n\(log)\(stderr)")
    }

    /// Stops the pooler: its clients' connections are cut. Killed, as its watcher kills it: what a
    /// signal asks of pgbouncer changes with its version (SIGINT waits for servers to be released, and
    /// since 1.23 SIGTERM for clients to leave), and it has nothing to keep.
    public func stop() {
        guard let text = try? String(contentsOfFile: folder + "/watched.pid", encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        kill(pid, SIGKILL)
        for _ in 0..<500 where kill(pid, 0) == 0 { usleep(20_000) }
    }

    private static func accepts(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

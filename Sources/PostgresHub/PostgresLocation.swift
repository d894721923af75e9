import JournalKit

import Glibc

/// A PostgreSQL hub's server, database and role, read from libpq's connection string (the URI
/// `postgresql://alice@db.example.org:5432/journal?sslmode=verify-full`, or the key/value form
/// `host=db.example.org dbname=journal`) with libpq's defaults filled in from the environment at
/// `sync init`. The journal records `uri`, which names everything explicitly, so the daemon (which has
/// not the shell's environment) reaches the same server. A password is never part of it.
public struct PostgresLocation: Sendable, Equatable {
    /// A host name, an IP address, or (starting with "/") the folder of the server's Unix socket.
    public var host: String
    public var port: Int
    public var database: String
    public var user: String
    public var sslMode: SSLMode
    /// True when `sslMode` came from `PGSSLMODE`, not the connection string: advice names the
    /// variable (`sslModeSetting`).
    public var sslModeFromEnvironment = false
    /// The certificates to trust: a PEM file, or "system" for the system's; nil for libpq's default
    /// (`~/.postgresql/root.crt`, where there is one).
    public var sslRootCert: String?
    public var applicationName: String
    /// Seconds to wait for the server to answer a connection.
    public var connectTimeout: Int
    /// A password file to read instead of `PGPASSFILE` or `~/.pgpass`.
    public var passFile: String?
    /// The client certificate and its key (PEM), for a server that asks for one (pg_hba.conf's
    /// `cert`); nil for libpq's `~/.postgresql/postgresql.crt` and `.key`, where there are
    /// (`ClientCertificate`).
    public var sslCert: String?
    public var sslKey: String?

    /// libpq's `sslmode`, from not using TLS to checking the server's certificate and name.
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// The keys of a connection string this journal uses. Others (libpq has dozens) are refused by
    /// name rather than ignored: a setting that seems to apply but does not is worse than an error.
    static let keys: Set<String> = [
        "host", "port", "dbname", "user", "sslmode", "sslrootcert", "sslcert", "sslkey", "channel_binding", "application_name",
        "connect_timeout", "passfile",
    ]

    /// Where Debian's libpq looks for a server's socket when no host is given.
    static let defaultSocketFolder = "/var/run/postgresql"

    /// True for a Unix socket.
    public var isSocket: Bool { host.hasPrefix("/") }

    /// True for this machine over TCP: "localhost", 127.0.0.0/8, ::1.
    public var isLoopback: Bool { NetworkHost.isLoopback(host) }

    /// True for a host given as an IPv4 address.
    public var isIPv4: Bool { NetworkHost.isIPv4(host) }

    /// The socket's path, for a Unix socket: libpq's `<folder>/.s.PGSQL.<port>`.
    public var socketPath: String { host + "/.s.PGSQL.\(port)" }

    /// `sslmode` as the person set it, for advice: "sslmode=disable in the connection string",
    /// "PGSSLMODE=disable in the environment".
    public var sslModeSetting: String {
        sslModeFromEnvironment ? "PGSSLMODE=\(sslMode.rawValue) in the environment" : "sslmode=\(sslMode.rawValue) in the connection string"
    }

    /// The server as messages name it: "db.example.org:5432", "/var/run/postgresql (Unix socket)".
    public var server: String {
        if isSocket { return "\(host) (Unix socket)" }
        return (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// Reads a connection string. `environment` gives libpq's variables (`PGHOST`, `PGPORT`,
    /// `PGDATABASE`, `PGUSER`, `PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY`,
    /// `PGCHANNELBINDING`, `PGAPPNAME`, `PGCONNECT_TIMEOUT`, `PGPASSFILE`) for what the string leaves
    /// out; `osUser` is the default role.
    public static func parse(
        _ text: String, environment: (String) -> String? = JournalPaths.environment, osUser: String = PostgresLocation.osUser()
    ) throws(PostgresHubError) -> PostgresLocation {
        // Whitespace separates a key/value list's pairs, as in libpq; no other control character is
        // taken, in the text or (once unquoted and decoded) in a setting: messages quote them.
        func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7f }
        guard !text.contains(where: { !ConnectionString.isSpace($0) && $0.unicodeScalars.contains(where: isControl) }) else {
            throw .badConnectionString("it holds a control character")
        }
        // A URL's scheme is any case (RFC 3986), as the registry that sent the name here reads it.
        let scheme = text.prefix(while: { $0 != ":" }).lowercased()
        let given = text.dropFirst(scheme.count).hasPrefix("://") && (scheme == "postgresql" || scheme == "postgres")
            ? try ConnectionString.uriSettings(text) : try ConnectionString.keywordSettings(text)
        for (key, value) in given where (key + value).unicodeScalars.contains(where: isControl) {
            throw .badConnectionString("the value of \(key) holds a control character")
        }
        for key in given.keys where !keys.contains(key) {
            if key == "password" { throw .passwordInConnectionString }
            throw .badConnectionString(
                "journal does not use \"\(key)\"; it takes \(keys.sorted().joined(separator: ", "))")
        }
        func setting(_ key: String, _ variable: String) -> String? {
            if let value = given[key], !value.isEmpty { return value }
            if let value = environment(variable), !value.isEmpty { return value }
            return nil
        }
        let user = setting("user", "PGUSER") ?? osUser
        let host = setting("host", "PGHOST") ?? defaultSocketFolder
        let portText = setting("port", "PGPORT") ?? "5432"
        if host.contains(",") || portText.contains(",") { throw .badConnectionString(severalServers(host: host, port: portText)) }
        guard let port = Int(portText), (1...65535).contains(port) else { throw .badConnectionString("port \"\(portText)\" is not a port number") }
        let modeText = setting("sslmode", "PGSSLMODE") ?? "prefer"
        guard let sslMode = SSLMode(rawValue: modeText) else {
            throw .badConnectionString(
                "sslmode \"\(modeText)\" is not one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let bindingText = setting("channel_binding", "PGCHANNELBINDING") ?? "prefer"
        switch bindingText {
        case "disable", "prefer": break
        // PostgresNIO signs in with SCRAM-SHA-256 only, never its channel-bound -PLUS.
        case "require": throw .channelBindingUnsupported
        default: throw .badConnectionString("channel_binding \"\(bindingText)\" is not one of disable, prefer, require")
        }
        let timeoutText = setting("connect_timeout", "PGCONNECT_TIMEOUT") ?? "10"
        guard let timeout = Int(timeoutText), (1...3600).contains(timeout) else {
            throw .badConnectionString("connect_timeout \"\(timeoutText)\" is not a number of seconds from 1 to 3600")
        }
        let location = PostgresLocation(
            host: host, port: port, database: setting("dbname", "PGDATABASE") ?? user, user: user, sslMode: sslMode,
            sslModeFromEnvironment: (given["sslmode"] ?? "").isEmpty && !(environment("PGSSLMODE") ?? "").isEmpty,
            sslRootCert: setting("sslrootcert", "PGSSLROOTCERT"), applicationName: setting("application_name", "PGAPPNAME") ?? "journal",
            connectTimeout: timeout, passFile: setting("passfile", "PGPASSFILE"), sslCert: setting("sslcert", "PGSSLCERT"),
            sslKey: setting("sslkey", "PGSSLKEY"))
        guard location.database.utf8.count <= 63, location.user.utf8.count <= 63 else {
            throw .badConnectionString("a database or role name is at most 63 bytes")
        }
        return location
    }

    /// libpq's list of servers (`host=h1,h2 port=5432,5433`, or a URI's `h1:5432,h2:5433`), said
    /// server by server.
    private static func severalServers(host: String, port: String) -> String {
        let hosts = host.split(separator: ",", omittingEmptySubsequences: false)
        let ports = port.split(separator: ",", omittingEmptySubsequences: false)
        // libpq pairs them in order; a single host or port goes with each of the other list.
        func item(_ list: [Substring], _ index: Int) -> Substring { list.count == 1 ? list[0] : index < list.count ? list[index] : "" }
        let servers = (0..<max(hosts.count, ports.count)).map { index in
            let host = item(hosts, index), port = item(ports, index)
            let name = host.isEmpty ? "(the default)" : host.contains(":") ? "[\(host)]" : String(host)
            return port.isEmpty ? name : name + ":" + port
        }
        return "it names several servers (\(servers.joined(separator: ", "))); multiple hosts are not supported: "
            + "a hub is one server, give one host"
    }

    /// The connection string the journal records: everything explicit, no password.
    public var uri: String {
        var query: [(String, String)] = []
        var authority = PercentEncoding.encoded(user) + "@"
        if isSocket {
            query.append(("host", host))
            if port != 5432 { query.append(("port", String(port))) }
        } else {
            authority += (host.contains(":") ? "[\(host)]" : PercentEncoding.encoded(host)) + ":\(port)"
        }
        query.append(("sslmode", sslMode.rawValue))
        if let sslRootCert { query.append(("sslrootcert", sslRootCert)) }
        if let sslCert { query.append(("sslcert", sslCert)) }
        if let sslKey { query.append(("sslkey", sslKey)) }
        if applicationName != "journal" { query.append(("application_name", applicationName)) }
        if connectTimeout != 10 { query.append(("connect_timeout", String(connectTimeout))) }
        if let passFile { query.append(("passfile", passFile)) }
        let settings = query.map { (key: String, value: String) -> String in
            key + "=" + PercentEncoding.encoded(value, keeping: ["/"])
        }
        return "postgresql://\(authority)/\(PercentEncoding.encoded(database))?" + settings.joined(separator: "&")
    }

    /// The user this process runs as: libpq's default role.
    public static func osUser() -> String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return JournalPaths.environment("USER") ?? "postgres"
    }
}

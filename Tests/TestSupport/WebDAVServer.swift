import Foundation

/// A real WebDAV server for the tests, from Debian's packages: Apache httpd with mod_dav over TLS (a
/// certificate authority made here, the server's certificate for "localhost" and 127.0.0.1), or nginx
/// with its DAV and dav-ext modules over plain HTTP on loopback; both with Basic logins from an
/// htpasswd file. Its folders are in a temporary folder, served from `root`, which a test can write in
/// as anyone with the login could. It runs as `nobody` when the tests run as root (Apache refuses
/// root). A watcher started with it stops it and removes its folder when the test process ends,
/// however it ends.
public final class WebDAVServer: Sendable {
    public enum Software: String, Sendable, CaseIterable {
        case apache, nginx
    }

    public let software: Software
    public let folder: String
    public let port: Int
    /// The folder the server serves.
    public let root: String
    /// The certificate authority that signed the server's certificate (Apache's): sslrootcert.
    public let authority: String
    /// The login every test uses, and its password ("app password" has a space, as Nextcloud's do not,
    /// to test quoting).
    public static let user = "alice"
    public static let password = "app password 1"

    /// One server of each kind for the whole test process, started on first use.
    public static let apache: WebDAVServer = {
        do { return try WebDAVServer(.apache) } catch { fatalError("cannot start the test Apache server: \(error)") }
    }()
    public static let nginx: WebDAVServer = {
        do { return try WebDAVServer(.nginx) } catch { fatalError("cannot start the test nginx server: \(error)") }
    }()

    /// The shared server of `software`; both servers' logins are then in the `.netrc` at `netrcPath`
    /// (the test process never sets `NETRC` in its own environment: a `setenv` while another thread
    /// starts a process crashed the tests).
    public static func shared(_ software: Software) -> WebDAVServer {
        let server = software == .apache ? apache : nginx
        _ = processNetrc
        return server
    }

    /// The `.netrc` with both servers' logins, made when a server is first used.
    public static let netrcPath = NSTemporaryDirectory() + "journal-dav-netrc-\(getpid())"

    private static let processNetrc: Void = {
        let path = netrcPath
        let lines = Software.allCases.map { netrcLine(for: $0) }.joined()
        FileManager.default.createFile(atPath: path, contents: Data(lines.utf8), attributes: [.posixPermissions: 0o600])
        // Gone with the test process, however it ends.
        _ = try? ChildProcess("/bin/sh", ["-c", "while kill -0 \(getpid()) 2>/dev/null; do sleep 0.5; done; rm -f '\(path)'"])
    }()

    /// A new server of `software`; its files in `root`, or in a folder of its own (a small tmpfs a test
    /// mounted, to fill).
    public init(_ software: Software, root: String? = nil) throws {
        self.software = software
        _ = Self.processNetrc
        let folder = NSTemporaryDirectory() + "journal-dav-" + UUID().uuidString.prefix(8).lowercased()
        self.folder = folder
        self.root = root ?? folder + "/dav"
        authority = folder + "/ca.crt"
        port = PostgresServer.freePort()
        for sub in ["dav", "run", "lock", "temp"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        try PostgresServer.makeCertificates(in: folder, subject: "/CN=localhost", altNames: "DNS:localhost,IP:127.0.0.1")
        try PostgresServer.shell("htpasswd -cbm '\(folder)/htpasswd' '\(Self.user)' '\(Self.password)' 2>/dev/null")
        let asRoot = getuid() == 0
        if asRoot {
            try PostgresServer.shell(
                "chmod 755 '\(folder)' && chmod 644 '\(folder)/server.key' '\(folder)/htpasswd' && "
                    + "chown -R nobody:nogroup '\(folder)/dav' '\(folder)/run' '\(folder)/lock' '\(folder)/temp' '\(self.root)'")
        }
        switch software {
        case .apache: try apacheConfiguration(asRoot: asRoot).write(toFile: folder + "/httpd.conf", atomically: true, encoding: .utf8)
        case .nginx: try nginxConfiguration(asRoot: asRoot).write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        }
        try start()
    }

    /// The hub URL of a new folder on this server (made here, empty): `davs://alice@localhost:PORT/NAME`
    /// with the authority to trust, or `dav://alice@127.0.0.1:PORT/NAME`.
    public func newFolder(prefix: String = "hub") throws -> String {
        let name = prefix + "-" + UUID().uuidString.prefix(8).lowercased()
        try makeFolder(root + "/" + name)
        return url(name)
    }

    /// The hub URL of `name` on this server.
    public func url(_ name: String) -> String {
        switch software {
        case .apache: "davs://\(Self.user)@localhost:\(port)/\(name)?sslrootcert=\(authority)"
        case .nginx: "dav://\(Self.user)@127.0.0.1:\(port)/\(name)"
        }
    }

    /// The HTTP URL of `path` on this server, for curl.
    public func httpURL(_ path: String) -> String {
        software == .apache ? "https://localhost:\(port)/\(path)" : "http://127.0.0.1:\(port)/\(path)"
    }

    /// The folder a hub URL on this server is kept in on disk.
    public func onDisk(_ url: String) -> String {
        let path = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).last ?? ""
        return root + "/" + (path.split(separator: "?").first ?? "")
    }

    /// A `.netrc` line with this server's login, for a machine's home.
    public var netrcLine: String { Self.netrcLine(for: software) }

    static func netrcLine(for software: Software) -> String {
        "machine \(software == .apache ? "localhost" : "127.0.0.1") login \(user) password \"\(password)\"\n"
    }

    /// Writes `home/.netrc` (0600) with this server's login.
    public func writeNetrc(home: String) throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let path = home + "/.netrc"
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        try (existing + netrcLine).write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
    }

    /// A folder in the served tree, owned by the server's user.
    public func makeFolder(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if getuid() == 0 { try PostgresServer.shell("chown -R nobody:nogroup '\(root)'") }
    }

    /// Runs curl against this server with the login: its status code and body.
    public func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        var all = ["-s", "-u", "\(Self.user):\(Self.password)", "-w", "\n%{http_code}"] + arguments
        if software == .apache { all = ["--cacert", authority] + all }
        let result = try ProcessRunner.run("/usr/bin/curl", all, environment: [:])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// Starts the server, with a watcher that stops it when this process ends, and waits until it answers.
    public func start() throws {
        let command: String
        switch software {
        case .apache: command = "/usr/sbin/apache2 -d '\(folder)' -f '\(folder)/httpd.conf' -DFOREGROUND"
        case .nginx: command = "/usr/sbin/nginx -p '\(folder)/' -c '\(folder)/nginx.conf' -e stderr -g 'daemon off;'"
        }
        // Its own process group, stopped whole: Apache's workers go with it.
        try ServerWatcher.launch(
            "setsid " + command, log: folder + "/server.log", pidFile: folder + "/server.pid", stop: "kill -KILL -$server", removing: folder)
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            if let answer = try? curl(["-o", "/dev/null", "-X", "OPTIONS", httpURL("")]), answer.status != 0 { return }
            guard ContinuousClock.now < deadline else {
                let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
                let errors = (try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? ""
                throw FixtureError("the test \(software) server did not answer within 60 s:\n\(log)\n\(errors)")
            }
            usleep(50_000)
        }
    }

    /// Stops the server and its workers at once (KILL to its process group), leaving its files:
    /// requests in flight are cut.
    public func stop() throws {
        guard let text = try? String(contentsOfFile: folder + "/server.pid", encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        try? FileManager.default.removeItem(atPath: folder + "/server.pid")
        kill(-pid, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(60)
        while kill(pid, 0) == 0 {
            guard ContinuousClock.now < deadline else { throw FixtureError("the \(software) server (pid \(pid)) did not stop within 60 s") }
            usleep(20_000)
        }
    }

    /// Stops and starts the server again: every connection is cut.
    public func restart() throws {
        try stop()
        try start()
    }

    private func apacheConfiguration(asRoot: Bool) -> String {
        let modules = "/usr/lib/apache2/modules"
        let loads = ["mpm_event", "authn_core", "authn_file", "auth_basic", "authz_core", "authz_user", "dav", "dav_fs", "dav_lock", "ssl"]
            .map { "LoadModule \($0)_module \(modules)/mod_\($0).so" }.joined(separator: "\n")
        return """
            ServerRoot "\(folder)"
            ServerName localhost
            Listen 127.0.0.1:\(port)
            PidFile \(folder)/run/httpd.pid
            ErrorLog \(folder)/error.log
            LogLevel warn
            DefaultRuntimeDir \(folder)/run
            \(asRoot ? "User nobody\nGroup nogroup" : "")
            \(loads)
            Timeout 60
            MaxRequestWorkers 64
            DavLockDB \(folder)/lock/DavLock
            SSLEngine on
            SSLCertificateFile \(folder)/server.crt
            SSLCertificateKeyFile \(folder)/server.key
            DocumentRoot "\(root)"
            <Directory "\(root)">
              Dav On
              Options None
              AllowOverride None
              AuthType Basic
              AuthName "journal"
              AuthUserFile \(folder)/htpasswd
              Require valid-user
            </Directory>

            """
    }

    private func nginxConfiguration(asRoot: Bool) -> String {
        """
        load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;
        pid \(folder)/run/nginx.pid;
        error_log stderr warn;
        worker_processes 1;
        \(asRoot ? "user nobody nogroup;" : "")
        events { worker_connections 512; }
        http {
          access_log \(folder)/access.log;
          client_body_temp_path \(folder)/temp/body;
          proxy_temp_path \(folder)/temp/proxy;
          fastcgi_temp_path \(folder)/temp/fastcgi;
          uwsgi_temp_path \(folder)/temp/uwsgi;
          scgi_temp_path \(folder)/temp/scgi;
          dav_ext_lock_zone zone=journal:1m;
          server {
            listen 127.0.0.1:\(port);
            client_max_body_size 0;
            location / {
              root \(root);
              auth_basic "journal";
              auth_basic_user_file \(folder)/htpasswd;
              dav_methods PUT DELETE MKCOL COPY MOVE;
              dav_ext_methods PROPFIND OPTIONS LOCK UNLOCK;
              dav_ext_lock zone=journal;
              dav_access user:rw;
            }
          }
        }

        """
    }
}

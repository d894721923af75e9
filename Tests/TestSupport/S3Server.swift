import Foundation

/// A real S3 endpoint for the tests: `moto_server` (PyPI's `moto[server]`, which `make test-deps`
/// installs) on loopback, plain HTTP, in memory. A few for the whole test process, started on first
/// use, each bucket on the one its name picks (`serving`): one Python process, bound by its interpreter
/// lock, answered dozens of tests' syncs at once too slowly, and a process sends no more than 16
/// requests at once to one server (`HTTPExchange`), so ten tests of a whole run waited past the
/// connect timeout. A watcher stops each when the test process ends, however it ends. Each test gets
/// a bucket of its own.
/// moto takes any access key and checks no signature: what signing and credentials do is tested
/// against AWS's published examples (SignatureV4Tests) and by a test front that refuses them.
/// moto checks a PUT's `If-None-Match` and `If-Match`, then writes, with nothing between on its
/// threaded server: two writers at once could both be told they created a name (a whole run saw it
/// once). S3 makes the condition and the write one step; the server is started so that moto does
/// too (`launcher`).
public final class S3Server: Sendable {
    public let folder: String
    /// The address it listens on: 127.0.0.1, or ::1 for a test of an IPv6 endpoint.
    public let host: String
    public let port: Int
    /// The certificate authority that signed its certificate (for "localhost" and 127.0.0.1) when it
    /// answers over TLS; nil for plain HTTP.
    public let authority: String?

    /// The access key every test signs with.
    public static let environment = ["AWS_ACCESS_KEY_ID": "journal-test", "AWS_SECRET_ACCESS_KEY": "journal-test-secret"]

    /// The servers, started together on first use.
    public static let pool: [S3Server] = {
        do { return try (0..<4).map { _ in try S3Server() } } catch { fatalError("cannot start the test S3 server (moto_server): \(error)") }
    }()

    /// The first of the pool, for a test that needs one server.
    public static var shared: S3Server { pool[0] }

    /// The server of the pool that holds `bucket`, by its name.
    public static func serving(_ bucket: String) -> S3Server { pool[index(of: bucket)] }

    private static func index(of bucket: String) -> Int { Int(bucket.utf8.reduce(UInt32(0)) { $0 &+ UInt32($1) } % UInt32(pool.count)) }

    /// A new, empty bucket on the server of the pool its name picks: its name.
    public static func newBucket() throws -> String {
        let bucket = "hub-" + UUID().uuidString.prefix(12).lowercased()
        return try serving(bucket).make(bucket)
    }

    /// The hub URL of `prefix` in a new bucket of the pool's.
    public static func newHubURL(prefix: String = "journal") throws -> String {
        let bucket = try newBucket()
        return "s3://\(bucket)/\(prefix)?endpoint=\(serving(bucket).endpoint)"
    }

    public init(host: String = "127.0.0.1", tls: Bool = false) throws {
        self.host = host
        folder = NSTemporaryDirectory() + "journal-s3-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if tls { try PostgresServer.makeCertificates(in: folder, subject: "/CN=localhost", altNames: "DNS:localhost,IP:127.0.0.1") }
        authority = tls ? folder + "/ca.crt" : nil
        port = PostgresServer.freePort()
        guard let python = Self.motoPython() else {
            throw FixtureError("moto_server is not installed: run `make test-deps` (it installs moto[server] from PyPI)")
        }
        // Not moto.py, which would stand for the package it imports.
        let launcher = folder + "/atomic_moto.py"
        try Self.launcher.write(toFile: launcher, atomically: true, encoding: .utf8)
        try ServerWatcher.launch(
            "'\(python)' '\(launcher)' -H \(host) -p \(port)" + (tls ? " -c '\(folder)/server.crt' -k '\(folder)/server.key'" : ""), log: folder + "/server.log", pidFile: folder + "/server.pid", stop: "kill -KILL $server", removing: folder)
        let deadline = ContinuousClock.now + .seconds(60)
        while (try? curl(["-o", "/dev/null", url("/")]))?.status ?? 0 == 0 {
            guard ContinuousClock.now < deadline else {
                let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
                throw FixtureError("the test S3 server did not answer within 60 s:\n\(log)")
            }
            usleep(50_000)
        }
    }

    /// The Python that has moto: the one `moto_server`'s first line names, or python3 (which `make
    /// test-deps` installs it for) when that is a shim; nil when no `moto_server` is on PATH or
    /// where pip puts it for root.
    static func motoPython() -> String? {
        let environment = ProcessInfo.processInfo.environment
        let path = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/local/bin", (environment["HOME"] ?? "/root") + "/.local/bin"]
        guard let moto = path.map({ $0 + "/moto_server" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let firstLine = ((try? String(contentsOfFile: moto, encoding: .utf8)) ?? "").prefix { $0 != "\n" }
        guard firstLine.hasPrefix("#!"), firstLine.contains("python"), !firstLine.contains(" ") else { return "python3" }
        return String(firstLine.dropFirst(2))
    }

    /// moto's server with each PUT's condition and write made one step under a lock, and, over TLS,
    /// each connection's handshake in that connection's thread: werkzeug wraps its listening socket
    /// so that accept() shakes hands in the one thread that accepts, and a connection that opened
    /// without sending its hello held every other one back until the client's connect timeout (a
    /// whole run once saw a handshake refused after 10 s as a connection not taken).
    static let launcher = """
        import ssl, sys, threading
        import moto.s3.responses as responses
        from moto.server import main
        plain_wrap = ssl.SSLContext.wrap_socket
        def wrap_without_handshake(self, sock, *args, **kwargs):
            if kwargs.get('server_side'):
                kwargs['do_handshake_on_connect'] = False
            return plain_wrap(self, sock, *args, **kwargs)
        ssl.SSLContext.wrap_socket = wrap_without_handshake
        writes = threading.Lock()
        def atomically(name):
            plain = getattr(responses.S3Response, name)
            def locked(self, *args, **kwargs):
                with writes:
                    return plain(self, *args, **kwargs)
            setattr(responses.S3Response, name, locked)
        # A delete too: one between another write's check and its write would be lost to it.
        for name in ('put_object', 'delete_object'):
            atomically(name)
        if __name__ == '__main__':
            main(sys.argv[1:])

        """

    /// The endpoint, as a hub's URL names it.
    public var endpoint: String { (authority == nil ? "http://" : "https://") + (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// The HTTP URL of `path` on the server.
    public func url(_ path: String) -> String { endpoint + path }

    /// Makes the empty bucket `bucket` on this server: its name.
    public func make(_ bucket: String) throws -> String {
        let answer = try curl(["-X", "PUT", url("/" + bucket)])
        guard answer.status == 200 else { throw FixtureError("the test S3 server did not make the bucket \(bucket): \(answer.status) \(answer.body)") }
        return bucket
    }

    /// Puts `bytes` at each of `keys` of `bucket`, as anyone with the store's key could: one curl for
    /// them all (a process for each of a thousand junk cards weighed on the whole test run).
    public func put(_ bytes: Data, bucket: String, keys: [String]) throws {
        let file = folder + "/upload-" + UUID().uuidString
        try bytes.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let uploads = keys.flatMap { ["-T", file, url("/\(bucket)/\($0)")] }
        let answer = try ProcessRunner.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}\n"] + uploads, environment: [:])
        let statuses = answer.stdout.split(separator: "\n")
        guard statuses.count == keys.count, statuses.allSatisfy({ $0 == "200" }) else {
            throw FixtureError("the test S3 server did not take every key: \(Set(statuses))")
        }
    }

    /// The keys in `bucket` under `prefix`.
    public func keys(bucket: String, prefix: String = "") throws -> [String] {
        var keys: [String] = []
        var token: String?
        repeat {
            var query = "list-type=2&prefix=" + (prefix.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            if let token { query += "&continuation-token=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
            let body = try curl([url("/\(bucket)?\(query)")]).body
            keys += body.components(separatedBy: "<Key>").dropFirst().compactMap { $0.components(separatedBy: "</Key>").first }
            token = body.contains("<IsTruncated>true</IsTruncated>")
                ? body.components(separatedBy: "<NextContinuationToken>").dropFirst().first?.components(separatedBy: "<").first : nil
        } while token != nil
        return keys
    }

    /// Runs curl against the server: its status code and body.
    public func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let result = try ProcessRunner.run("/usr/bin/curl", ["-s", "-w", "\n%{http_code}"] + (authority.map { ["--cacert", $0] } ?? []) + arguments, environment: [:])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
}

import Foundation

/// A real S3 endpoint for the tests: `moto_server` (PyPI's `moto[server]`, which `make test-deps`
/// installs) on loopback, plain HTTP, in memory. One for the whole test process, started on first use;
/// a watcher stops it when the test process ends, however it ends. Each test gets a bucket of its own.
/// moto takes any access key and checks no signature: what signing and credentials do is tested
/// against AWS's published examples (SignatureV4Tests) and by a test front that refuses them.
public final class S3Server: Sendable {
    public let folder: String
    public let port: Int

    /// The access key every test signs with.
    public static let environment = ["AWS_ACCESS_KEY_ID": "journal-test", "AWS_SECRET_ACCESS_KEY": "journal-test-secret"]

    public static let shared: S3Server = {
        do { return try S3Server() } catch { fatalError("cannot start the test S3 server (moto_server): \(error)") }
    }()

    public init() throws {
        folder = NSTemporaryDirectory() + "journal-s3-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = PostgresServer.freePort()
        guard let moto = Self.motoServer() else {
            throw FixtureError("moto_server is not installed: run `make test-deps` (it installs moto[server] from PyPI)")
        }
        try ServerWatcher.launch(
            "'\(moto)' -H 127.0.0.1 -p \(port)", log: folder + "/server.log", pidFile: folder + "/server.pid", stop: "kill -KILL $server", removing: folder)
        let deadline = ContinuousClock.now + .seconds(60)
        while (try? curl(["-o", "/dev/null", url("/")]))?.status ?? 0 == 0 {
            guard ContinuousClock.now < deadline else {
                let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
                throw FixtureError("the test S3 server did not answer within 60 s:\n\(log)")
            }
            usleep(50_000)
        }
    }

    /// `moto_server` on PATH, or where pip puts it for root.
    static func motoServer() -> String? {
        let environment = ProcessInfo.processInfo.environment
        let path = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/local/bin", (environment["HOME"] ?? "/root") + "/.local/bin"]
        return path.map { $0 + "/moto_server" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The endpoint, as a hub's URL names it.
    public var endpoint: String { "http://127.0.0.1:\(port)" }

    /// The HTTP URL of `path` on the server.
    public func url(_ path: String) -> String { endpoint + path }

    /// A new, empty bucket: its name.
    public func newBucket() throws -> String {
        let bucket = "hub-" + UUID().uuidString.prefix(12).lowercased()
        let answer = try curl(["-X", "PUT", url("/" + bucket)])
        guard answer.status == 200 else { throw FixtureError("the test S3 server did not make the bucket \(bucket): \(answer.status) \(answer.body)") }
        return bucket
    }

    /// The hub URL of `prefix` in a new bucket.
    public func newHubURL(prefix: String = "journal") throws -> String {
        "s3://\(try newBucket())/\(prefix)?endpoint=\(endpoint)"
    }

    /// Puts `bytes` at `key` of `bucket`, as anyone with the store's key could.
    public func put(_ bytes: Data, bucket: String, key: String) throws {
        let file = folder + "/upload-" + UUID().uuidString
        try bytes.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let answer = try curl(["-X", "PUT", "--data-binary", "@" + file, url("/\(bucket)/\(key)")])
        guard answer.status == 200 else { throw FixtureError("the test S3 server did not take \(key): \(answer.status)") }
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
        let result = try ProcessRunner.run("/usr/bin/curl", ["-s", "-w", "\n%{http_code}"] + arguments, environment: [:])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
}

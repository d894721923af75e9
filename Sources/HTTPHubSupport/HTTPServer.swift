import JournalKit

/// A hub's server reached over HTTP: where it is, and how its certificate is checked. The pieces of a
/// hub's URL that every kind reached over HTTP reads alike (WebDAV, S3).
public struct HTTPServer: Sendable, Equatable {
    /// True for HTTPS.
    public let secure: Bool
    /// A host name or an IP address (an IPv6 one without its brackets), lowercase.
    public let host: String
    public let port: Int
    /// The certificate authority to trust (a PEM file), in place of the system's.
    public let rootCertificate: String?

    public init(secure: Bool, host: String, port: Int, rootCertificate: String?) {
        self.secure = secure
        self.host = host
        self.port = port
        self.rootCertificate = rootCertificate
    }

    /// True for this machine: "localhost", 127.0.0.0/8, ::1.
    public var isLoopback: Bool { NetworkHost.isLoopback(host) }

    /// The server as messages name it: "cloud.example.org", "127.0.0.1:8080".
    public var name: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? shown : shown + ":\(port)"
    }

    /// The URL of `path` (which starts with "/") on this server.
    public func url(_ path: String) -> String { (secure ? "https://" : "http://") + name + path }
}

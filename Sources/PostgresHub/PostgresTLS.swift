import JournalKit
import PostgresNIO

/// libpq's `sslmode` as PostgresNIO's TLS, with one rule of the journal's on top: a server that is not
/// this machine is reached over TLS unless the connection string says `sslmode=disable` (libpq's
/// default, `prefer`, falls back to plain text without a word, and `allow` starts there).
enum PostgresTLS {
    static func configuration(for location: PostgresLocation) throws -> PostgresConnection.Configuration.TLS {
        let mode = effectiveMode(location)
        let root = rootCertificate(location)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        switch mode {
        case .disable:
            return .disable
        case .allow, .prefer:
            tls.certificateVerification = .none
            return .prefer(try NIOSSLContext(configuration: tls))
        case .require:
            tls.certificateVerification = .none
            return .require(try NIOSSLContext(configuration: tls))
        case .verifyCA, .verifyFull:
            let path = root ?? defaultRootCertificate ?? "~/.postgresql/root.crt"
            if path != "system" {
                guard FileSystem.exists(path) else { throw PostgresHubError.rootCertificateMissing(path: path) }
                tls.trustRoots = .file(path)
            }
            tls.certificateVerification = mode == .verifyFull ? .fullVerification : .noHostnameVerification
            return .require(try NIOSSLContext(configuration: tls))
        }
    }

    /// The mode in force: `prefer` and `allow` mean `require` for a server elsewhere; as in libpq,
    /// `require` with a certificate to trust at hand checks the server's against it.
    static func effectiveMode(_ location: PostgresLocation) -> PostgresLocation.SSLMode {
        if location.isSocket { return .disable }
        var mode = location.sslMode
        if !location.isLoopback, mode == .prefer || mode == .allow { mode = .require }
        if mode == .require, let root = rootCertificate(location), root == "system" || FileSystem.exists(root) { mode = .verifyCA }
        return mode
    }

    /// The certificate to trust: the connection string's, else libpq's `~/.postgresql/root.crt`.
    static func rootCertificate(_ location: PostgresLocation) -> String? {
        location.sslRootCert ?? defaultRootCertificate.flatMap { FileSystem.exists($0) ? $0 : nil }
    }

    static var defaultRootCertificate: String? {
        JournalPaths.environment("HOME").map { $0 + "/.postgresql/root.crt" }
    }
}

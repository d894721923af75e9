import JournalKit
import NIOSSL

/// libpq's `sslmode` as NIOSSL's settings, with one rule of the journal's on top: a server that is not
/// this machine is reached over TLS unless the connection string says `sslmode=disable` (libpq's
/// default, `prefer`, falls back to plain text without a word, and `allow` starts there).
enum PostgresTLS {
    /// The TLS to begin on a connection (`TLSRequest`); nil for none.
    static func context(for location: PostgresLocation) throws -> NIOSSLContext? {
        let mode = effectiveMode(location)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        switch mode {
        case .disable:
            return nil
        case .allow, .prefer, .require:
            tls.certificateVerification = .none
        case .verifyCA, .verifyFull:
            let path = rootCertificate(location) ?? defaultRootCertificate ?? "~/.postgresql/root.crt"
            if path != "system" {
                guard FileSystem.exists(path) else { throw PostgresHubError.rootCertificateMissing(path: path) }
                tls.trustRoots = .file(path)
            }
            // The chain is NIOSSL's to check; the name is ours (`ServerName`): NIOSSL's check takes an
            // IP address entry for the address connected to, whatever host the connection string names.
            tls.certificateVerification = .noHostnameVerification
        }
        try ClientCertificate.add(to: &tls, for: location)
        return try NIOSSLContext(configuration: tls)
    }

    /// The name sent in the handshake (SNI), as libpq sends it: a host name, never an address.
    static func serverName(_ location: PostgresLocation) -> String? {
        location.isSocket || ServerName.address(location.host) != nil ? nil : location.host
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

    /// What made TLS required, for a server that does not offer it: the journal's rule, or sslmode.
    static func whyRequired(_ location: PostgresLocation) -> String {
        switch location.sslMode {
        case .prefer, .allow:
            return "a server that is not this machine is reached over TLS unless sslmode says disable"
        case .disable, .require, .verifyCA, .verifyFull:
            return location.sslModeSetting + " asks for it"
        }
    }

    /// The certificate to trust: the connection string's, else libpq's `~/.postgresql/root.crt`.
    static func rootCertificate(_ location: PostgresLocation) -> String? {
        location.sslRootCert ?? defaultRootCertificate.flatMap { FileSystem.exists($0) ? $0 : nil }
    }

    static var defaultRootCertificate: String? {
        JournalPaths.environment("HOME").map { $0 + "/.postgresql/root.crt" }
    }
}

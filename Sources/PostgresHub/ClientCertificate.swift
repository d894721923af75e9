import JournalKit
import NIOSSL

/// The certificate libpq would show a server that asks for one (pg_hba.conf's `cert`, a managed
/// service's client certificates): `sslcert` and `sslkey`, else `~/.postgresql/postgresql.crt` and
/// `.key` when the certificate is there. The key is read only when it is its owner's alone
/// (`PrivateFile`): libpq refuses a key file with group or world access too.
enum ClientCertificate {
    /// Adds the certificate and key to `tls`; nothing when none is named and libpq's is not there.
    static func add(to tls: inout TLSConfiguration, for location: PostgresLocation) throws {
        let folder = JournalPaths.environment("HOME").map { $0 + "/.postgresql/" }
        // libpq passes over a certificate that is not there, even one the connection string names;
        // here a named one must be there: a setting that seems to apply but does not is worse.
        guard let certificatePath = location.sslCert ?? folder.map({ $0 + "postgresql.crt" }),
            location.sslCert != nil || FileSystem.exists(certificatePath)
        else { return }
        guard let keyPath = location.sslKey ?? folder.map({ $0 + "postgresql.key" }) else {
            throw PostgresHubError.clientCertificateUnusable(path: certificatePath, reason: "its key is not named (sslkey=FILE)")
        }
        guard FileSystem.exists(certificatePath) else {
            throw PostgresHubError.clientCertificateUnusable(path: certificatePath, reason: "it is not there")
        }
        let certificateBytes = try FileSystem.readFile(certificatePath, limit: limit, what: "the client certificate")
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(certificateBytes)
        } catch {
            throw PostgresHubError.clientCertificateUnusable(path: certificatePath, reason: "it is not a PEM certificate")
        }
        guard !certificates.isEmpty else {
            throw PostgresHubError.clientCertificateUnusable(path: certificatePath, reason: "it holds no PEM certificate")
        }
        guard let keyBytes = try PrivateFile.read(
            keyPath, limit: limit, what: "the client certificate's key",
            exposure: "anyone who reads it can sign in to the server as you")
        else {
            throw PostgresHubError.clientCertificateUnusable(path: keyPath, reason: "the certificate's key is not there")
        }
        let key: NIOSSLPrivateKey
        do {
            // No passphrase is ever given (libpq's sslpassword is not taken): an encrypted key fails here.
            key = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem) { (_: NIOSSLPassphraseSetter<[UInt8]>) in }
        } catch {
            throw PostgresHubError.clientCertificateUnusable(
                path: keyPath, reason: "it is not an unencrypted PEM private key")
        }
        tls.certificateChain = certificates.map { .certificate($0) }
        tls.privateKey = .privateKey(key)
    }

    /// The most a certificate or key file can be.
    static let limit = 1024 * 1024
}

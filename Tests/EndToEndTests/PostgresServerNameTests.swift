import Foundation
import Testing
import TestSupport

/// `sslmode=verify-full` against real servers whose certificates the test authority signed for
/// other names: the host the connection string names must be one the certificate names, of the
/// same kind (a host name among its DNS names, an address among its IP addresses), as psql checks.
@Suite(.onTestThreads) struct PostgresServerNameTests {
    func join(_ server: PostgresServer, host: String, in folder: String) throws -> ProcessResult {
        let (database, role) = try server.makeDatabase()
        let machine = JournalCLI(home: folder + "/\(host)")
        let file = try server.writePasswordFile(role: role, in: folder)
        return try machine.run("sync", "init", "--postgres", server.uri(database: database, role: role, host: host) + "&passfile=" + file)
    }

    /// NIOSSL took the certificate's IP address for the address connected to, whatever the name.
    @Test func aCertificateForAnAddressOnlyIsNotForAHostName() async throws {
        try await withTemporaryDirectory { folder in
            let server = try PostgresServer(tls: true, subject: "/CN=journal test server", altNames: "IP:127.0.0.1")
            defer { try? server.stop() }
            let byName = try join(server, host: "localhost", in: folder)
            #expect(byName.status == 78, "\(byName.stderr)")
            #expect(byName.stderr.contains("is not for localhost: it names IP:127.0.0.1, CN=journal test server"), "\(byName.stderr)")
            let byAddress = try join(server, host: "127.0.0.1", in: folder)
            #expect(byAddress.status == 0, "\(byAddress.stderr)")
        }
    }

    @Test func aCertificateForTheHostNameIsForThatNameOnly() async throws {
        try await withTemporaryDirectory { folder in
            let byName = try join(PostgresServer.shared, host: "localhost", in: folder)
            #expect(byName.status == 0, "\(byName.stderr)")
            let byAddress = try join(PostgresServer.shared, host: "127.0.0.1", in: folder)
            #expect(byAddress.status == 78, "\(byAddress.stderr)")
            #expect(byAddress.stderr.contains("is not for 127.0.0.1: it names DNS:localhost, CN=localhost"), "\(byAddress.stderr)")
        }
    }

    /// A certificate with no subjectAltName, as `openssl req -subj /CN=host` makes: its common name counts.
    @Test func aCommonNameCountsWhenTheCertificateHasNoAlternativeNames() async throws {
        try await withTemporaryDirectory { folder in
            let server = try PostgresServer(tls: true, subject: "/CN=localhost", altNames: nil)
            defer { try? server.stop() }
            let byName = try join(server, host: "localhost", in: folder)
            #expect(byName.status == 0, "\(byName.stderr)")
        }
    }
}

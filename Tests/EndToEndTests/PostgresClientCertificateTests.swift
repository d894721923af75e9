import Foundation
import Testing
import TestSupport

/// A server that signs roles in by their client certificate (pg_hba.conf's `cert`, as managed
/// services offer): the certificate is the test authority's, for CN = the role, made by openssl here.
@Suite(.onTestThreads) struct PostgresClientCertificateTests {
    @Test func aServerThatSignsInByCertificateTakesTheClientCertificate() async throws {
        try await withTemporaryDirectory { folder in
            let server = try PostgresServer(tls: true)
            defer { try? server.stop() }
            let (database, role) = try server.makeDatabase()
            _ = try server.addAccessRules("hostssl all \(role) all cert\nhost all \(role) all reject")
            let made = try ProcessRunner.run("/bin/sh", ["-c", """
                cd '\(folder)' &&
                openssl req -newkey rsa:2048 -nodes -subj '/CN=\(role)' -keyout client.key -out client.csr &&
                openssl x509 -req -in client.csr -CA '\(server.authority)' -CAkey '\(server.folder)/ca.key' -set_serial 7 -days 1 -out client.crt &&
                chmod 600 client.key
                """], environment: [:])
            #expect(made.status == 0, "\(made.stderr)")
            let uri = server.uri(database: database, role: role)

            let named = JournalCLI(home: folder + "/named")
            let joined = try named.run("sync", "init", "--postgres", uri + "&sslcert=\(folder)/client.crt&sslkey=\(folder)/client.key")
            #expect(joined.status == 0, "\(joined.stderr)")

            // libpq's own place for them, ~/.postgresql/postgresql.crt and .key, when the string names none.
            let byDefault = JournalCLI(home: folder + "/default")
            try FileManager.default.createDirectory(atPath: byDefault.home + "/.postgresql", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: folder + "/client.crt", toPath: byDefault.home + "/.postgresql/postgresql.crt")
            try FileManager.default.copyItem(atPath: folder + "/client.key", toPath: byDefault.home + "/.postgresql/postgresql.key")
            let joinedByDefault = try byDefault.run("sync", "init", "--postgres", uri, "--key-file", "-", stdin: try named.run("sync", "key").stdout)
            #expect(joinedByDefault.status == 0, "\(joinedByDefault.stderr)")

            // A key others can read is not used, as libpq refuses one with group or world access.
            #expect(chmod(folder + "/client.key", 0o640) == 0)
            let exposed = JournalCLI(home: folder + "/exposed")
            let refused = try exposed.run("sync", "init", "--postgres", uri + "&sslcert=\(folder)/client.crt&sslkey=\(folder)/client.key")
            #expect(refused.status == 78, "\(refused.stderr)")
            #expect(refused.stderr.contains("client.key can be read or written by other users (mode 640)"), "\(refused.stderr)")

            let missing = try exposed.run("sync", "init", "--postgres", uri + "&sslcert=\(folder)/no-such.crt&sslkey=\(folder)/client.key")
            #expect(missing.status == 78, "\(missing.stderr)")
            #expect(missing.stderr.contains("no-such.crt"), "\(missing.stderr)")
            #expect(try exposed.run("sync", "status").stdout.contains("is not joined to a hub"))
        }
    }
}

import Foundation
import Testing
import TestSupport

/// Each way a connection to a hub's server fails is told by what the failure is (an errno, a TLS
/// error type, a SQLSTATE), against a real server: the message names the cause and the exit status
/// says whether retrying can help (1) or the setup must change (78). The refusals of
/// `PostgresSyncTests` (password, host, refused, host name, database, TLS not offered, rights) and
/// these cover every class `ServerFailure` tells apart.
@Suite(.onTestThreads) struct PostgresRefusalTests {
    let server = PostgresServer.shared

    func refused(_ uri: String, role: String, in folder: String, environment: [String: String] = [:]) throws -> ProcessResult {
        var machine = JournalCLI(home: folder + "/home")
        machine.environment.merge(environment) { _, given in given }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = try server.writePasswordFile(role: role, in: folder)
        let result = try machine.run("sync", "init", "--postgres", uri + "&passfile=" + file)
        #expect(try machine.run("sync", "status").stdout.contains("is not joined to a hub"), "joined after a refusal")
        return result
    }

    @Test func aCertificateSignedByNoAuthorityTrustedHereIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let (database, role) = try server.makeDatabase()
            let other = folder + "/other-ca.crt"
            let made = try ProcessRunner.run(
                "/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder + "/other-ca.key", "-out", other,
                                     "-subj", "/CN=another authority", "-days", "2"], environment: [:])
            #expect(made.status == 0, "\(made.stderr)")
            let uri = server.uri(database: database, role: role).replacingOccurrences(of: server.authority, with: other)
            let result = try refused(uri, role: role, in: folder)
            #expect(result.status == 78, "\(result.stderr)")
            #expect(result.stderr.contains("not signed by a certificate this machine trusts"), "\(result.stderr)")
        }
    }

    /// `sslrootcert=system` trusts the system's authorities only: the test server's own authority is
    /// not one of them, and the refusal says so.
    @Test func theSystemsAuthoritiesDoNotVouchForAServerSignedByItsOwn() async throws {
        try await withTemporaryDirectory { folder in
            let (database, role) = try server.makeDatabase()
            let uri = server.uri(database: database, role: role).replacingOccurrences(of: "sslrootcert=" + server.authority, with: "sslrootcert=system")
            #expect(uri.contains("sslrootcert=system&"))
            let result = try refused(uri, role: role, in: folder)
            #expect(result.status == 78, "\(result.stderr)")
            #expect(result.stderr.contains("not signed by a certificate this machine trusts"), "\(result.stderr)")
        }
    }

    /// `sslmode=verify-ca` checks the certificate's authority and not its host name: the server's
    /// certificate (for "localhost") is taken at 127.0.0.1, which verify-full refuses.
    @Test func verifyCAJoinsAtAnAddressTheCertificateDoesNotName() async throws {
        try await withTemporaryDirectory { folder in
            let (database, role) = try server.makeDatabase()
            let machine = JournalCLI(home: folder + "/home")
            let file = try server.writePasswordFile(role: role, in: folder)
            let uri = server.uri(database: database, role: role, sslmode: "verify-ca", host: "127.0.0.1") + "&passfile=" + file
            let joined = try machine.run("sync", "init", "--postgres", uri)
            #expect(joined.status == 0, "\(joined.stderr)")
            try machine.run("add", "espresso")
            #expect(try machine.run("sync").status == 0)
            let status = try machine.run("sync", "status").stdout
            #expect(status.contains("(certificate verified, host name not)"), "\(status)")
        }
    }

    /// The password comes from a password file or the terminal, never from `PGPASSWORD` (an
    /// environment any process of the user can read, and the daemon does not have): with only that
    /// set, the server's question goes unanswered.
    @Test func pgpasswordIsIgnored() async throws {
        try await withTemporaryDirectory { folder in
            let (database, role) = try server.makeDatabase()
            var machine = JournalCLI(home: folder + "/home")
            machine.environment["PGPASSWORD"] = "secret-\(role)"
            let result = try machine.run("sync", "init", "--postgres", server.uri(database: database, role: role))
            #expect(result.status == 78, "\(result.stderr)")
            #expect(result.stderr.contains("asks a password") && !result.stderr.contains("secret-"), "\(result.stderr)")
            #expect(try machine.run("sync", "status").stdout.contains("is not joined to a hub"))
        }
    }

    /// pg_hba.conf takes this role over TLS only (as a managed server does): asked without, it is
    /// told to drop `sslmode=disable`, where it was set: in the string, or in PGSSLMODE.
    @Test func aServerThatAcceptsOnlyTLSSaysSoToAConnectionWithout() async throws {
        try await withTemporaryDirectory { folder in
            let (database, role) = try server.makeDatabase()
            let rules = try server.addAccessRules("hostnossl all \(role) all reject")
            defer { try? server.removeAccessRules(rules) }
            let uri = "postgresql://\(role)@localhost:\(server.port)/\(database)?connect_timeout=60"
            let result = try refused(uri + "&sslmode=disable", role: role, in: folder)
            #expect(result.status == 78, "\(result.stderr)")
            #expect(result.stderr.contains("accepts only TLS connections") && result.stderr.contains("SQLSTATE 28000"), "\(result.stderr)")
            #expect(result.stderr.contains("sslmode=disable in the connection string turns TLS off"), "\(result.stderr)")
            let fromEnvironment = try refused(uri, role: role, in: folder + "/environment", environment: ["PGSSLMODE": "disable"])
            #expect(fromEnvironment.status == 78, "\(fromEnvironment.stderr)")
            #expect(fromEnvironment.stderr.contains("PGSSLMODE=disable in the environment turns TLS off"), "\(fromEnvironment.stderr)")
        }
    }

    /// A server that takes the connection and never says a word: bounded by connect_timeout.
    @Test func aServerThatNeverAnswersIsGivenUpOnInItsConnectTimeout() async throws {
        try await withTemporaryDirectory { folder in
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(listener) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            #expect(bound == 0 && listen(listener, 8) == 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
            }
            let port = Int(UInt16(bigEndian: address.sin_port))
            let result = try refused("postgresql://nobody@127.0.0.1:\(port)/journal?sslmode=disable&connect_timeout=2", role: "nobody", in: folder)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("did not answer within 2 s"), "\(result.stderr)")
        }
    }

    @Test func aSocketFolderWithNoServerIsSaidByItsErrno() async throws {
        try await withTemporaryDirectory { folder in
            let socketFolder = (folder + "/no-server").replacingOccurrences(of: "/", with: "%2F")
            let result = try refused("postgresql://nobody@/journal?host=\(socketFolder)&port=5432", role: "nobody", in: folder)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("cannot reach the hub") && result.stderr.contains("no such file or directory"), "\(result.stderr)")
        }
    }
}

import Foundation
import Testing
import TestSupport

@testable import PostgresHub

/// `verify-full`'s name check as libpq makes it: host names against DNS names, addresses against
/// IP addresses, the common name only without names of the host's kind, a wildcard for one whole
/// left-most label. The real servers of `PostgresServerNameTests` check it end to end.
@Suite(.onTestThreads) struct ServerNameTests {
    let loopback: [UInt8] = [127, 0, 0, 1]

    @Test func aHostNameIsMatchedAgainstDNSNamesOnly() {
        #expect(ServerName.matches(host: "localhost", CertificateNames(dnsNames: ["localhost"])))
        #expect(ServerName.matches(host: "DB.Example.org", CertificateNames(dnsNames: ["other.org", "db.example.ORG"])))
        #expect(!ServerName.matches(host: "localhost", CertificateNames(ipAddresses: [loopback])))
        #expect(!ServerName.matches(host: "db.example.org", CertificateNames(dnsNames: ["example.org"])))
    }

    @Test func anAddressIsMatchedAgainstIPAddressesOnly() {
        #expect(ServerName.matches(host: "127.0.0.1", CertificateNames(ipAddresses: [loopback])))
        #expect(!ServerName.matches(host: "127.0.0.1", CertificateNames(dnsNames: ["127.0.0.1"], ipAddresses: [[10, 0, 0, 1]])))
        #expect(!ServerName.matches(host: "127.0.0.1", CertificateNames(dnsNames: ["localhost"], ipAddresses: [[127, 0, 0, 2]])))
        var six = [UInt8](repeating: 0, count: 16)
        six[15] = 1
        #expect(ServerName.matches(host: "::1", CertificateNames(ipAddresses: [loopback, six])))
        #expect(ServerName.matches(host: "0:0::1", CertificateNames(ipAddresses: [six])))
        #expect(!ServerName.matches(host: "::1", CertificateNames(ipAddresses: [loopback])))
    }

    @Test func theCommonNameCountsOnlyWithoutNamesOfTheHostsKind() {
        #expect(ServerName.matches(host: "localhost", CertificateNames(commonName: "localhost")))
        #expect(ServerName.matches(host: "localhost", CertificateNames(ipAddresses: [loopback], commonName: "localhost")))
        #expect(!ServerName.matches(host: "localhost", CertificateNames(dnsNames: ["db"], commonName: "localhost")))
        #expect(ServerName.matches(host: "127.0.0.1", CertificateNames(commonName: "127.0.0.1")))
        #expect(!ServerName.matches(host: "127.0.0.1", CertificateNames(ipAddresses: [[10, 0, 0, 1]], commonName: "127.0.0.1")))
        #expect(!ServerName.matches(host: "localhost", CertificateNames()))
    }

    @Test(arguments: [
        ("*.example.org", "db.example.org", true),
        ("*.example.org", "DB.EXAMPLE.ORG", true),
        ("*.example.org", "a.b.example.org", false),
        ("*.example.org", "example.org", false),
        ("*.example.org", ".example.org", false),
        ("*.example.org", "dbexample.org", false),
        ("db*.example.org", "db1.example.org", false),
        ("*db.example.org", "xdb.example.org", false),
        ("db.*.org", "db.example.org", false),
        ("*", "localhost", false),
        ("*.org", "example.org", true),
    ])
    func aWildcardIsOneWholeLeftMostLabel(_ name: String, _ host: String, _ matches: Bool) {
        #expect(ServerName.matches(host: host, CertificateNames(dnsNames: [name])) == matches)
    }

    @Test func theNamesAreSaidAsOpensslWritesThem() {
        var six = [UInt8](repeating: 0, count: 16)
        six[15] = 1
        #expect(CertificateNames(dnsNames: ["db"], ipAddresses: [loopback, six], commonName: "x").description == "DNS:db, IP:127.0.0.1, IP:0:0:0:0:0:0:0:1, CN=x")
        #expect(CertificateNames().description == "no name")
    }

    /// The names are read from a certificate openssl made: every kind of alternative name, and the
    /// first of two common names.
    @Test func theNamesAreReadFromTheCertificate() async throws {
        try await withTemporaryDirectory { folder in
            let made = try ProcessRunner.run("/bin/sh", ["-c", """
                cd '\(folder)' &&
                openssl req -x509 -newkey rsa:2048 -nodes -days 1 -keyout key.pem -out cert.pem -subj '/O=x/CN=first/CN=second' \
                    -addext 'subjectAltName=email:a@example.org,DNS:*.example.org,IP:10.1.2.3,URI:https://example.org,IP:::1,DNS:db' &&
                openssl x509 -in cert.pem -outform DER -out cert.der
                """], environment: [:])
            #expect(made.status == 0, "\(made.stderr)")
            let names = try CertificateNames(der: Array(Data(contentsOf: URL(fileURLWithPath: folder + "/cert.der"))))
            var six = [UInt8](repeating: 0, count: 16)
            six[15] = 1
            #expect(names == CertificateNames(dnsNames: ["*.example.org", "db"], ipAddresses: [[10, 1, 2, 3], six], commonName: "first"))
            #expect(ServerName.matches(host: "x.example.org", names) && ServerName.matches(host: "::1", names))
            #expect(!ServerName.matches(host: "first", names))
        }
    }

    @Test func whatIsNotACertificateIsRefused() {
        #expect(throws: (any Error).self) { _ = try CertificateNames(der: [0x30, 0x03, 0x02, 0x01, 0x01]) }
        #expect(throws: (any Error).self) { _ = try CertificateNames(der: Array("not DER".utf8)) }
    }
}

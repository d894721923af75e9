import Foundation
import Testing
import JournalKit
import TestSupport

@testable import PostgresHub

/// libpq's connection strings, read as libpq reads them, and the journal's rule for TLS on top.
@Suite(.onTestThreads) struct ConnectionStringTests {
    func parse(_ text: String, _ environment: [String: String] = [:]) throws(PostgresHubError) -> PostgresLocation {
        try PostgresLocation.parse(text, environment: { environment[$0] }, osUser: "osuser")
    }

    /// A password file with Windows line ends is read as libpq reads it: "\r\n" is one Character in
    /// Swift, and a file split on "\n" alone was one line, its passwords never found.
    @Test func aPasswordFileIsReadWhateverItsLineEnds() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/pgpass"
            try "# a comment\r\nother.example.org:5432:*:alice:not-this\r\ndb.example.org:5432:journal:alice:secret\\:one\r\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
            #expect(chmod(path, 0o600) == 0)
            #expect(try PasswordFile(path: path).password(for: try parse("postgresql://alice@db.example.org/journal")) == "secret:one")
        }
    }

    @Test func aURIAndItsKeyValueTwinMeanTheSame() throws {
        let uri = try parse("postgresql://alice@db.example.org:6543/journal?sslmode=verify-full&application_name=laptop")
        let keywords = try parse("host=db.example.org port = 6543 dbname='journal' user=alice sslmode=verify-full application_name=laptop")
        #expect(uri == keywords)
        #expect(uri.host == "db.example.org" && uri.port == 6543 && uri.database == "journal" && uri.user == "alice")
        #expect(uri.sslMode == .verifyFull && uri.applicationName == "laptop")
    }

    @Test func whatIsLeftOutComesFromTheEnvironmentThenLibpqsDefaults() throws {
        let bare = try parse("postgresql://")
        #expect(bare.host == "/var/run/postgresql" && bare.isSocket)
        #expect(bare.port == 5432 && bare.user == "osuser" && bare.database == "osuser" && bare.sslMode == .prefer)
        let fromEnvironment = try parse("dbname=journal", ["PGHOST": "db.internal", "PGPORT": "7000", "PGUSER": "bob", "PGSSLMODE": "require"])
        #expect(fromEnvironment.host == "db.internal" && fromEnvironment.port == 7000 && fromEnvironment.user == "bob")
        #expect(fromEnvironment.sslMode == .require && fromEnvironment.database == "journal")
    }

    @Test func socketsIPv6AndEscapesAreRead() throws {
        #expect(try parse("postgresql://%2Fsrv%2Fpg/journal").host == "/srv/pg")
        #expect(try parse("postgresql:///journal?host=/srv/pg&port=5433").socketPath == "/srv/pg/.s.PGSQL.5433")
        let six = try parse("postgresql://alice@[2001:db8::1]:5433/j")
        #expect(six.host == "2001:db8::1" && six.port == 5433 && six.server == "[2001:db8::1]:5433")
        #expect(try parse("dbname='my \\'quoted\\' db'").database == "my 'quoted' db")
        #expect(try parse("postgresql://al%40ice@h/d%20b").user == "al@ice")
    }

    /// libpq separates a key/value list's pairs by any whitespace, not just spaces.
    @Test func pairsAreSeparatedByAnyWhitespace() throws {
        let location = try parse("host=db.example.org\tdbname=journal\r\nuser = alice\n\u{0B}sslmode=\u{0C}verify-full\t")
        #expect(location == (try parse("host=db.example.org dbname=journal user=alice sslmode=verify-full")))
    }

    /// An empty port in the authority is no port (libpq): a port parameter gives it.
    @Test func anEmptyPortLeavesThePortToTheParameter() throws {
        let location = try parse("postgresql://localhost:/journal?port=5433")
        #expect(location.host == "localhost" && location.port == 5433 && location.database == "journal")
        #expect(try parse("postgresql://localhost:/journal").port == 5432)
    }

    /// The driver signs in with SCRAM-SHA-256, never -PLUS: channel_binding=require is refused for
    /// what it is, from the string or from PGCHANNELBINDING; disable and prefer are what it does.
    @Test func channelBindingIsRefusedOnlyWhenRequired() throws {
        #expect(throws: PostgresHubError.channelBindingUnsupported) { _ = try parse("host=h channel_binding=require") }
        #expect(throws: PostgresHubError.channelBindingUnsupported) { _ = try parse("host=h", ["PGCHANNELBINDING": "require"]) }
        #expect(PostgresHubError.channelBindingUnsupported.kind == .setup)
        #expect(try parse("postgresql://h/db?channel_binding=prefer") == (try parse("postgresql://h/db?channel_binding=disable")))
    }

    /// Advice about sslmode names where it was set.
    @Test func sslmodeIsSaidWhereItWasSet() throws {
        #expect(try parse("host=h sslmode=disable").sslModeSetting == "sslmode=disable in the connection string")
        #expect(try parse("host=h", ["PGSSLMODE": "disable"]).sslModeSetting == "PGSSLMODE=disable in the environment")
        #expect(try parse("host=h sslmode=require", ["PGSSLMODE": "disable"]).sslModeSetting == "sslmode=require in the connection string")
    }

    @Test func theRecordedURINamesEverythingAndReadsBackTheSame() throws {
        for text in ["postgresql://alice@db.example.org/journal?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem",
                     "host=db.example.org sslcert=/home/a/client.crt sslkey='/home/a/client key.pem'",
                     "host=/var/run/postgresql dbname=j user=al@ice connect_timeout=3 passfile=/home/a/.pgpass",
                     "postgresql://alice@[::1]:5433/j?application_name=work%20laptop"] {
            let location = try parse(text)
            #expect(try parse(location.uri, ["PGHOST": "elsewhere", "PGUSER": "someone"]) == location, "\(location.uri)")
            #expect(location.uri.hasPrefix("postgresql://"))
        }
    }

    @Test(arguments: [
        ("postgresql://alice:pw@host/db", "password"),
        ("host=h password=pw", "password"),
        ("postgresql://h/db?sslmode=sometimes", "sslmode \"sometimes\""),
        ("postgresql://h:99999/db", "port \"99999\""),
        ("postgresql://h1,h2/db", "several servers (h1:5432, h2:5432); multiple hosts are not supported"),
        ("postgresql://h1:5432,h2:5433/db", "several servers (h1:5432, h2:5433)"),
        ("postgresql://[::1]:5432,h2/db", "several servers ([::1]:5432, h2)"),
        ("host=h1,h2 port=5432", "several servers (h1:5432, h2:5432)"),
        ("host=h port=5432,5433", "several servers (h:5432, h:5433)"),
        ("host=h channel_binding=sometimes", "channel_binding \"sometimes\""),
        ("dbname='a\tb'", "the value of dbname holds a control character"),
        ("postgresql://h/d%09b", "the value of dbname holds a control character"),
        ("postgresql://h/db?target_session_attrs=any", "does not use \"target_session_attrs\""),
        ("host=h dbname", "lacks \"= value\""),
        ("dbname='unclosed", "closing quote"),
        ("postgresql://h/d%zz", "malformed %-escape"),
        ("postgresql://h/db?sslmode=require&sslmode=disable", "given twice"),
        ("host=h\u{1b}[31m", "control character"),
    ])
    func aStringThatCannotBeUsedIsRefusedByWhatIsWrong(_ text: String, _ words: String) {
        let refusal = #expect(throws: PostgresHubError.self) { _ = try parse(text) }
        let message = refusal?.description ?? ""
        #expect(message.contains(words) || (words == "password" && message.contains("holds a password")), "\(message)")
        #expect(!message.contains("pw@") && !message.contains("password=pw"))
    }

    @Test func aServerElsewhereIsReachedOverTLSUnlessDisabledOutright() throws {
        #expect(PostgresTLS.effectiveMode(try parse("host=db.example.org")) == .require)
        #expect(PostgresTLS.effectiveMode(try parse("host=db.example.org sslmode=allow")) == .require)
        #expect(PostgresTLS.effectiveMode(try parse("host=db.example.org sslmode=disable")) == .disable)
        #expect(PostgresTLS.effectiveMode(try parse("host=localhost")) == .prefer)
        #expect(PostgresTLS.effectiveMode(try parse("host=127.0.0.2")) == .prefer)
        #expect(PostgresTLS.effectiveMode(try parse("host=127.0.0.1.example.org")) == .require)
        #expect(PostgresTLS.effectiveMode(try parse("host=/var/run/postgresql sslmode=verify-full")) == .disable)
        #expect(PostgresTLS.effectiveMode(try parse("host=db sslmode=require sslrootcert=system")) == .verifyCA)
    }
}

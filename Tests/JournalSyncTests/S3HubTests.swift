import Foundation
import HTTPHubSupport
import JournalKit
import JournalSync
import Testing
import TestSupport

@testable import S3Hub

/// An S3 hub's own promises, on the tests' S3 server (moto) and a front that answers as stores in the
/// wild do: what its contract shares with every hub is HubContractTests'.
@Suite(.onTestThreads) struct S3HubTests {
    static let environment: @Sendable (String) -> String? = { S3Server.environment[$0] }

    /// Writes `credentials` and `config` as `home`'s AWS files (`~/.aws/`), each its owner's alone.
    static func writeAWSFiles(in home: String, credentials: String? = nil, config: String) throws {
        try FileManager.default.createDirectory(atPath: home + "/.aws", withIntermediateDirectories: true)
        for (name, text) in [("credentials", credentials), ("config", config)] {
            guard let text else { continue }
            try text.write(toFile: home + "/.aws/" + name, atomically: true, encoding: .utf8)
            chmod(home + "/.aws/" + name, 0o600)
        }
    }

    /// A storage on `bucket` through `endpoint`.
    static func storage(_ bucket: String, endpoint: String? = nil) throws -> S3Storage {
        let place = try S3Place(url: "s3://\(bucket)/journal?endpoint=\(endpoint ?? S3Server.serving(bucket).endpoint)", environment: environment)
        return place.storage
    }

    @Test func sixteenWritersOfOneNameCreateItOnce() async throws {
        let storage = try Self.storage(try S3Server.newBucket())
        let made = try await withThrowingTaskGroup(of: String?.self) { group in
            for writer in 0..<16 { group.addTask { try await storage.create("contested", Array("writer \(writer)".utf8)) } }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(made.compactMap { $0 }.count == 1)
        let kept = try #require(try await storage.read("contested", limit: 100))
        #expect(String(decoding: kept, as: UTF8.self).hasPrefix("writer "))
    }

    /// An endpoint at an IPv6 address, bracketed in the URL, the requests and the signed Host header.
    @Test func anIPv6EndpointIsReached() async throws {
        let server = try S3Server(host: "::1")
        let storage = try Self.storage(try server.make("hub-" + UUID().uuidString.prefix(12).lowercased()), endpoint: server.endpoint)
        #expect(storage.location.contains("?endpoint=http://[::1]:\(server.port)"), "\(storage.location)")
        #expect(try await storage.create("written", [1, 2]) != nil)
        #expect(try await storage.read("written", limit: 10) == [1, 2])
        #expect(try await storage.list(prefix: "", after: nil, limit: 10).map(\.name) == ["written"])
    }

    /// A store over TLS whose certificate a private authority signed: trusted with the URL's
    /// `sslrootcert` or the bundle AWS tools are given (`AWS_CA_BUNDLE`, recorded), refused against the
    /// system's authorities alone, and its trust said by `sync status`.
    @Test func aStoreOverTLSIsTrustedThroughItsAuthorityAlone() async throws {
        let server = try S3Server(tls: true)
        let authority = try #require(server.authority)
        let bucket = try server.make("hub-" + UUID().uuidString.prefix(12).lowercased())
        func storage(_ url: String, _ variables: [String: String] = [:]) throws -> S3Storage {
            let all = S3Server.environment.merging(variables) { $1 }
            return try S3Place(url: url, environment: { all[$0] }).storage
        }
        let trusting = try storage("s3://\(bucket)/journal?endpoint=\(server.endpoint)&sslrootcert=\(authority)")
        #expect(try await trusting.create("written", [1]) != nil)
        #expect(try await trusting.facts().contains(HubFact(label: "TLS", key: "tls", value: "certificate verified against \(authority)")))
        let bundled = try storage("s3://\(bucket)/journal?endpoint=\(server.endpoint)", ["AWS_CA_BUNDLE": authority])
        #expect(bundled.location.hasSuffix("&sslrootcert=\(authority)"), "\(bundled.location)")
        #expect(try await bundled.read("written", limit: 10) == [1])
        let system = try storage("s3://\(bucket)/journal?endpoint=\(server.endpoint)")
        await #expect(throws: HTTPHubError.self) { _ = try await system.read("written", limit: 10) }
    }

    /// A location the journal recorded is opened as it was recorded (the registry names it with
    /// `isURL` false): never settled again by what the environment or the AWS files say now.
    @Test func aRecordedLocationIsOpenedAsItWasRecorded() throws {
        let recorded = "s3://bucket/x?endpoint=http://127.0.0.1:9000"
        #expect(try S3Driver().place(named: recorded, isURL: false, access: HubAccess()).location == recorded)
    }

    @Test func aReplaceOfAVersionNotThereIsRefusedAndOfTheOneThereTakes() async throws {
        let storage = try Self.storage(try S3Server.newBucket())
        let first = try #require(try await storage.create("card", [1]))
        #expect(try await storage.replace("card", [2], ifUnchanged: "\"0123456789abcdef0123456789abcdef\"") == nil)
        let second = try #require(try await storage.replace("card", [3], ifUnchanged: first))
        #expect(try await storage.replace("card", [4], ifUnchanged: first) == nil)
        #expect(try await storage.read("card", limit: 10) == [3])
        // A 404 to If-Match: nothing there is a version not there, not a failure.
        #expect(try await storage.replace("gone", [5], ifUnchanged: second) == nil)
    }

    /// A write sent again after its connection closed finds what it wrote the first time: its own, by
    /// its bytes, never another copy of the journal's.
    @Test func aWriteSentAgainFindsItsOwnAndNoOneElses() async throws {
        let storage = try Self.storage(try S3Server.newBucket())
        let tag = try #require(try await storage.create("segment", [1, 2, 3]))
        #expect(try await storage.createOrFindOwn("segment", [1, 2, 3]) == tag)
        #expect(try await storage.createOrFindOwn("segment", [1, 2, 4]) == nil)
        #expect(try await storage.createOrFindOwn("segment", [1, 2, 3, 4]) == nil)
    }

    /// A device's head that does not say its log's last position (its rewrite failed, and the process
    /// that owed it ended) is put right by the device's next sync: the others' looks see its segments.
    @Test func aHeadLeftBehindIsPutRightByTheNextSync() async throws {
        try await withTemporaryDirectory { folder in
            let place = try HubFlavor.s3.newPlace(in: folder)
            let a = try await Machine.make(folder, name: "a", place: place, key: SyncKey())
            _ = try await a.store.add(drink(minute: 1))
            try await a.sync()
            let device = DeviceID(rawValue: a.store.deviceID.rawValue)
            // Written and read as the device's own key does (moto keeps an object from unsigned requests
            // once a signed one made it).
            let storage = try #require(place as? S3Place).storage
            let head = "journal-hub-v1/heads/" + device.rawValue
            try await storage.put(head, Array("joined".utf8))
            #expect(try await storage.read(head, limit: 64) == Array("joined".utf8))
            try await a.sync()
            #expect(try await storage.read(head, limit: 64) == Array("1".utf8))
            await a.engine.close()
        }
    }

    /// What a device finds in its own log but did not write is moved to `set-aside/<device>/`, kept
    /// for a person, and the log syncs on; a dot-named object is a temporary, left alone as on the
    /// other hubs of files.
    @Test func aStrayInTheDevicesOwnLogIsSetAside() async throws {
        try await withTemporaryDirectory { folder in
            let place = try HubFlavor.s3.newPlace(in: folder)
            let a = try await Machine.make(folder, name: "a", place: place, key: SyncKey())
            _ = try await a.store.add(drink(minute: 1))
            try await a.sync()
            let storage = try #require(place as? S3Place).storage
            let log = "journal-hub-v1/logs/" + a.store.deviceID.rawValue + "/"
            _ = try await storage.create(log + "notes.txt", Array("mine".utf8))
            _ = try await storage.create(log + ".upload-in-progress", Array("half".utf8))
            _ = try await a.store.add(drink(minute: 2))
            let report = try await a.sync()
            #expect(report.setAside.map(\.name) == ["notes.txt"] && report.failures.isEmpty, "\(report)")
            let kept = "journal-hub-v1/set-aside/" + a.store.deviceID.rawValue + "/notes.txt"
            #expect(try await storage.read(kept, limit: 64) == Array("mine".utf8))
            #expect(try await storage.read(log + "notes.txt", limit: 64) == nil)
            #expect(try await storage.read(log + ".upload-in-progress", limit: 64) == Array("half".utf8))
            try await a.engine.hub.refresh(after: [:])
            #expect(try await a.engine.hub.log(of: a.store.deviceID).strays.isEmpty)
            #expect(try await a.sync().setAside.isEmpty)
            await a.engine.close()
        }
    }

    @Test func aStoreWithoutConditionalWritesIsRefusedAndLeftAsItWas() async throws {
        try await withTemporaryDirectory { folder in
            let front = try S3Front(folder: folder)
            defer { front.stop() }
            let bucket = try front.newBucket("careless")
            let place = try S3Place(url: "s3://\(bucket)/journal?endpoint=\(front.endpoint)", environment: Self.environment)
            let refused = await #expect(throws: S3HubError.self) { _ = try await place.make(key: SyncKey(), shared: false) }
            guard case .noConditionalWrites(_, let found)? = refused else { Issue.record("\(String(describing: refused))"); return }
            #expect(found.contains("If-None-Match"))
            #expect(refused?.description.contains("cannot write conditionally") == true)
            #expect(try S3Server.shared.keys(bucket: bucket).isEmpty)
        }
    }

    /// Each refusal a store answers with is said as what it is; a busy store is out of reach for as
    /// long as it asks; a body cut short is a failure to reach, never a short read taken for whole.
    @Test func whatAStoreAnswersIsSaidAsWhatItIs() async throws {
        try await withTemporaryDirectory { folder in
            let front = try S3Front(folder: folder)
            defer { front.stop() }
            func storage(_ behaviour: String) throws -> S3Storage { try Self.storage(try front.newBucket(behaviour), endpoint: front.endpoint) }
            let forbidden = try storage("forbidden")
            await #expect { _ = try await forbidden.read("x", limit: 10) } throws: { error in
                if case S3HubError.forbidden = error { return true } else { return false }
            }
            let badKey = try storage("badkey")
            await #expect { _ = try await badKey.list(prefix: "", after: nil, limit: 10) } throws: { error in
                (error as? S3HubError) == .credentialsRefused(accessKey: "journal-test", store: "127.0.0.1:\(front.port)", code: "InvalidAccessKeyId")
            }
            let expired = try storage("expired")
            await #expect(throws: S3HubError.tokenExpired(accessKey: "journal-test")) { _ = try await expired.create("x", [1]) }
            let conflict = try storage("conflict")
            #expect(try await conflict.create("x", [1]) != nil)
            let liar = try storage("liar")
            _ = try await liar.create("x", [1])
            let cut = await #expect(throws: SyncError.self) { _ = try await liar.read("x", limit: 1_000_000) }
            #expect(cut?.hubCondition == .unreachable, "\(String(describing: cut))")
            let endless = try storage("endless")
            let looping = await #expect(throws: SyncError.self) { _ = try await endless.listAll(prefix: "heads/") }
            #expect(looping?.hubCondition == .unreachable, "\(String(describing: looping))")
            let unconditional = try storage("unconditional")
            await #expect { _ = try await unconditional.create("x", [1]) } throws: { error in
                if case S3HubError.noConditionalWrites = error { return true } else { return false }
            }
            // Last: the store is then left alone for the 7 s it asked for.
            let slow = try storage("slowdown")
            let busy = await #expect(throws: SyncError.self) { _ = try await slow.read("x", limit: 10) }
            #expect(busy?.hubCondition == .unreachable && busy?.hubRetryAfter == .seconds(7), "\(String(describing: busy))")
            #expect(busy?.description.contains("SlowDown") == true, "\(String(describing: busy))")
        }
    }

    /// A former member names an object so that its name, stripped of its folder as characters, reads
    /// as another device's segment (a combining mark joins the folder's "/"): it is none, and the
    /// device it would name syncs on, never failing at a segment that is not there.
    @Test func aNameThatJoinsItsFolderNamesNoSegment() async throws {
        try await withTemporaryDirectory { folder in
            let (place, bucketAndPrefix) = try HubFlavor.s3.newPlaceAndDatabase(in: folder)
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            _ = try await a.store.add(drink(minute: 1))
            try await a.sync()
            try await a.engine.hub.refresh(after: [:])
            let device = try #require(try await a.engine.hub.devices().first)
            let parts = try #require(bucketAndPrefix).split(separator: "/", maxSplits: 1).map(String.init)
            try S3Server.serving(parts[0]).put(
                Data([1, 2, 3]), bucket: parts[0], keys: [parts[1] + "/journal-hub-v1/logs/%CC%81\(device.rawValue)/000000000001-000000000999.seg"])
            _ = try await a.store.add(drink(minute: 2))
            try await a.sync()
            try await a.engine.hub.refresh(after: [:])
            #expect(try await a.engine.hub.log(of: device).names.map(\.last).max() == 2)
            await a.engine.close()
        }
    }

    @Test func aHubsURLIsReadAndRecordedWithoutSecrets() throws {
        let plain = try S3Location.parse("s3://my-bucket/journal/alice")
        #expect(plain.bucket == "my-bucket" && plain.prefix == "journal/alice" && plain.endpoint == nil)
        #expect(plain.uri == "s3://my-bucket/journal/alice")
        #expect(plain.path("cards/x.card") == "/my-bucket/journal/alice/cards/x.card")
        #expect(plain.server(region: "eu-west-1").name == "s3.eu-west-1.amazonaws.com")
        let r2 = try S3Location.parse("s3://journal/?endpoint=https://ACCOUNT.r2.cloudflarestorage.com&region=auto")
        #expect(r2.prefix == "" && r2.region == "auto" && r2.endpoint?.name == "account.r2.cloudflarestorage.com")
        #expect(r2.uri == "s3://journal/?endpoint=https://account.r2.cloudflarestorage.com&region=auto")
        #expect(try S3Location.parse(r2.uri) == r2)
        // A private authority serves AWS's server too (a proxy that inspects TLS), and never a plain endpoint.
        #expect(try S3Location.parse("s3://bucket/x?sslrootcert=/etc/ca.pem").server(region: "eu-west-1").rootCertificate == "/etc/ca.pem")
        #expect(throws: S3HubError.self) { _ = try S3Location.parse("s3://bucket/x?endpoint=http://127.0.0.1:9000&sslrootcert=/etc/ca.pem") }
        #expect(throws: S3HubError.secretInURL) { _ = try S3Location.parse("s3://AKIA:secret@bucket/x") }
        #expect(throws: S3HubError.plainTextElsewhere(endpoint: "http://minio.example.org:9000")) {
            _ = try S3Location.parse("s3://bucket/x?endpoint=http://minio.example.org:9000")
        }
        #expect(throws: S3HubError.badURL(url: "s3://bucket/x?…", problem: "secret is not a setting of an S3 hub; they are endpoint, region, profile and sslrootcert")) {
            _ = try S3Location.parse("s3://bucket/x?secret=hunter2")
        }
        for bad in ["s3://bucket/a%2Fb", "s3://B/x", "s3://ab/x", "s3:///x", "s3://bucket/x?secret=1", "s3://bucket/../x", "s3://bucket/x?region=eu.west", "s3://bucket/x?endpoint=https://h/path"] {
            #expect(throws: S3HubError.self, "\(bad)") { _ = try S3Location.parse(bad) }
        }
    }

    /// journal-syncd, a systemd user service, sees none of the shell's variables: `sync init` records
    /// the region and profile they named, and says when the service would find another key than the
    /// shell's, or none, with no secret in what it says.
    @Test func whatTheServiceFindsIsWhatSyncInitFound() async throws {
        try await withTemporaryDirectory { folder in
            try Self.writeAWSFiles(
                in: folder,
                credentials: "[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = hunter-one\n\n[work]\naws_access_key_id=AKIAWORK\naws_secret_access_key=hunter-two\n",
                config: "[profile work]\nregion = eu-central-1\n")
            func settled(_ url: String, _ variables: [String: String], home: String = folder) throws -> S3CredentialSource {
                let all = variables.merging(["HOME": home]) { one, _ in one }
                let location = try S3CredentialSource(location: try S3Location.parse(url), environment: { all[$0] }).settled()
                return S3CredentialSource(location: location, environment: { all[$0] })
            }
            let key = ["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "hunter-zero"]
            #expect(try settled("s3://bucket/x", [:]).location.uri == "s3://bucket/x?region=us-east-1")
            #expect(try settled("s3://bucket/x", ["AWS_PROFILE": "work"]).location.uri == "s3://bucket/x?region=eu-central-1&profile=work")
            #expect(try settled("s3://bucket/x?region=auto", ["AWS_REGION": "eu-west-3"]).location.uri == "s3://bucket/x?region=auto")
            #expect(try settled("s3://bucket/x", ["AWS_REGION": "eu-west-3"]).location.uri == "s3://bucket/x?region=eu-west-3")
            // The files' key, which the service finds too.
            #expect(try settled("s3://bucket/x", [:]).serviceWarning() == nil)
            #expect(try settled("s3://bucket/x", ["AWS_PROFILE": "work"]).serviceWarning() == nil)
            // The shell's key, which the service does not see.
            let other = try #require(try settled("s3://bucket/x", key).serviceWarning())
            #expect(other.contains("AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY") && other.contains("access key AKIADEFAULT of profile default"), "\(other)")
            let none = try #require(try settled("s3://bucket/x", key, home: folder + "/nowhere").serviceWarning())
            #expect(none.contains("finds no key for profile default in \(folder)/nowhere/.aws/credentials"), "\(none)")
            for said in [other, none] { #expect(!said.contains("hunter"), "\(said)") }
            #expect(try settled("s3://bucket/x", ["AWS_ACCESS_KEY_ID": "AKIADEFAULT", "AWS_SECRET_ACCESS_KEY": "hunter-one"]).serviceWarning() == nil)
            let stale = try #require(try settled("s3://bucket/x", ["AWS_ACCESS_KEY_ID": "AKIADEFAULT", "AWS_SECRET_ACCESS_KEY": "hunter-new"]).serviceWarning())
            #expect(stale.contains("finds another secret for the access key AKIADEFAULT") && !stale.contains("hunter"), "\(stale)")
        }
    }

    /// A store's endpoint comes from the URL, or as AWS tools configure one (`AWS_ENDPOINT_URL_S3`,
    /// `AWS_ENDPOINT_URL`, a services section's `s3`, a profile's `endpoint_url`), and is recorded; another
    /// service's endpoint is never taken for the store's.
    @Test func anEndpointComesFromTheURLOrAsAWSToolsConfigureIt() async throws {
        try await withTemporaryDirectory { folder in
            try Self.writeAWSFiles(
                in: folder,
                config: """
                [profile r2]
                endpoint_url = https://ACCOUNT.r2.cloudflarestorage.com
                region = auto
                [profile split]
                services = local
                dynamodb =
                  endpoint_url = http://localhost:8000
                [services local]
                dynamodb =
                  endpoint_url = http://localhost:8001
                s3 =
                  endpoint_url = http://127.0.0.1:9000
                [profile nested]
                dynamodb =
                  endpoint_url = https://dynamodb.example.org
                [profile ignoring]
                endpoint_url = https://minio.example.org
                ignore_configured_endpoint_urls = true
                [profile plain]
                endpoint_url = http://minio.example.org:9000

                """)
            func uri(_ url: String, _ variables: [String: String]) throws -> String {
                let all = variables.merging(["HOME": folder]) { one, _ in one }
                let settled = try S3CredentialSource(location: try S3Location.parse(url), environment: { all[$0] }).settled()
                // What is recorded reads back as it was: the daemon opens it.
                #expect(try S3Location.parse(settled.uri) == settled, "\(settled.uri)")
                return settled.uri
            }
            #expect(try uri("s3://bucket/x", ["AWS_PROFILE": "r2"]) == "s3://bucket/x?endpoint=https://account.r2.cloudflarestorage.com&region=auto&profile=r2")
            #expect(try uri("s3://bucket/x", ["AWS_PROFILE": "split"]) == "s3://bucket/x?endpoint=http://127.0.0.1:9000&region=us-east-1&profile=split")
            #expect(try uri("s3://bucket/x", ["AWS_PROFILE": "nested"]) == "s3://bucket/x?region=us-east-1&profile=nested")
            #expect(try uri("s3://bucket/x", ["AWS_PROFILE": "ignoring"]) == "s3://bucket/x?region=us-east-1&profile=ignoring")
            let both = ["AWS_ENDPOINT_URL": "https://all.example.org", "AWS_ENDPOINT_URL_S3": "https://s3.example.org:8443"]
            #expect(try uri("s3://bucket/x", both) == "s3://bucket/x?endpoint=https://s3.example.org:8443&region=us-east-1")
            #expect(try uri("s3://bucket/x", ["AWS_ENDPOINT_URL": "https://all.example.org"]) == "s3://bucket/x?endpoint=https://all.example.org&region=us-east-1")
            #expect(try uri("s3://bucket/x?endpoint=https://mine.example.org", both) == "s3://bucket/x?endpoint=https://mine.example.org&region=us-east-1")
            #expect(try uri("s3://bucket/x", both.merging(["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"]) { $1 }) == "s3://bucket/x?region=us-east-1")
            #expect(throws: S3HubError.plainTextElsewhere(endpoint: "http://minio.example.org:9000")) { _ = try uri("s3://bucket/x", ["AWS_PROFILE": "plain"]) }
            // The variable over the profile's setting, either way.
            #expect(try uri("s3://bucket/x", ["AWS_PROFILE": "ignoring", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "false"]).hasPrefix("s3://bucket/x?endpoint=https://minio.example.org&"))
            // An authority bundle is for TLS: a plain endpoint of this machine's records none (its URL would not read back).
            #expect(try uri("s3://bucket/x?endpoint=http://127.0.0.1:9000", ["AWS_CA_BUNDLE": "/etc/ca.pem"]) == "s3://bucket/x?endpoint=http://127.0.0.1:9000&region=us-east-1")
            #expect(try uri("s3://bucket/x?endpoint=https://minio.example.org", ["AWS_CA_BUNDLE": "/etc/ca.pem"]).hasSuffix("&sslrootcert=/etc/ca.pem"))
            #expect(throws: S3HubError.badProfile("two words", source: "AWS_PROFILE")) { _ = try uri("s3://bucket/x", ["AWS_PROFILE": "two words"]) }
            // A host is a name or an IPv6 address, whatever its %-escapes decode to.
            for host in ["a%00b.example.org", "a%1bb.example.org", "[fe80::1%25eth0]", "a%20b.example.org"] {
                #expect(throws: S3HubError.self, "\(host)") { _ = try uri("s3://bucket/x?endpoint=https://\(host)", [:]) }
            }
            // A recorded URL is opened as it is: what the environment says now sends it nowhere else.
            let recorded = try S3Place(url: "s3://bucket/x?region=eu-west-1", settling: false, environment: { ["HOME": folder, "AWS_ENDPOINT_URL": "https://elsewhere.example.org"][$0] })
            #expect(recorded.location == "s3://bucket/x?region=eu-west-1")
            #expect(throws: S3HubError.badConfiguredEndpoint(source: "AWS_ENDPOINT_URL", problem: "the endpoint is not an https:// URL")) {
                _ = try uri("s3://bucket/x", ["AWS_ENDPOINT_URL": "ftp://files.example.org"])
            }
        }
    }

    /// The AWS files as AWS tools write them and people edit them: CRLF, comments, an indented setting,
    /// an empty value, a service's settings nested under `KEY =` (never the profile's own).
    @Test func theAWSFilesAreReadAsAWSToolsReadThem() {
        let text = "[default]\r\n  aws_access_key_id = AKIA1\r\n# a comment\r\naws_session_token =\r\nregion = eu-west-1\r\n"
            + "[profile x]\ns3 =\n  endpoint_url = https://s3.example.org\n\taddressing_style = path\nregion=us-west-2\n"
            + "[services local]\ns3 =\n  endpoint_url = https://local.example.org\n[sso-session y]\nregion = nowhere\n"
        let config = AWSProfiles(text: text, config: true)
        #expect(config.profiles["default"] == ["aws_access_key_id": "AKIA1", "region": "eu-west-1"])
        #expect(config.profiles["x"] == ["s3.endpoint_url": "https://s3.example.org", "s3.addressing_style": "path", "region": "us-west-2"])
        #expect(config.profiles["services local"] == ["s3.endpoint_url": "https://local.example.org"])
        #expect(config.profiles.count == 3)
    }

    @Test func credentialsComeFromTheEnvironmentOrAPrivateProfile() async throws {
        try await withTemporaryDirectory { folder in
            let aws = folder + "/.aws"
            try Self.writeAWSFiles(
                in: folder,
                credentials: "[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = s1\n\n[work]\naws_access_key_id=AKIAWORK\naws_secret_access_key=s2\naws_session_token = t2\n",
                config: "[profile work]\nregion = eu-central-1\n")
            func source(_ url: String, _ variables: [String: String]) throws -> S3CredentialSource {
                let all = variables.merging(["HOME": folder]) { one, _ in one }
                return S3CredentialSource(location: try S3Location.parse(url), environment: { all[$0] })
            }
            #expect(try source("s3://bucket/x", ["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "s0"]).credentials().accessKeyID == "AKIAENV")
            #expect(try source("s3://bucket/x", [:]).credentials().accessKeyID == "AKIADEFAULT")
            let work = try source("s3://bucket/x", ["AWS_PROFILE": "work"])
            #expect(try work.credentials().sessionToken == "t2")
            #expect(try work.region() == "eu-central-1")
            // The URL's profile over the environment's key.
            #expect(try source("s3://bucket/x?profile=work", ["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "s0"]).credentials().accessKeyID == "AKIAWORK")
            let missing = #expect(throws: S3HubError.self) { _ = try source("s3://bucket/x?profile=none", [:]).credentials() }
            #expect(missing?.description.contains("s1") == false)
            // A credentials file others can read is not read.
            chmod(aws + "/credentials", 0o644)
            #expect(throws: UnprotectedFileError.self) { _ = try source("s3://bucket/x", [:]).credentials() }
            #expect(String(describing: try S3CredentialSource(location: try S3Location.parse("s3://bucket/x"), environment: { ["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "s0"][$0] }).credentials()) == "access key AKIAENV")
        }
    }
}

import Foundation
import HTTPHubSupport
import JournalKit
import JournalSync
import Testing
import TestSupport

@testable import WebDAVHub

/// What only a WebDAV hub has to get right: one name written by many at once, the servers' listings
/// read by namespace, `.netrc`, and its URL.
@Suite(.onTestThreads) struct WebDAVHubTests {
    /// Sixteen writers of one segment name at once: exactly one is written, every other is told the
    /// name is taken, and what is on the hub is the winner's, whole. Apache lets 2-3 of 16 PUTs with
    /// `If-None-Match: *` through, and nginx ignores the header: the claim (MKCOL) is what holds.
    @Test(arguments: [HubFlavor.apache, .nginx])
    func writersOfOneNameAtOnceWriteItOnce(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let hub = try await flavor.newPlace(in: folder).make(key: SyncKey(), shared: false)
            let device = DeviceID(rawValue: UUIDText.random())
            let name = SegmentName(first: 1, last: 4)
            for round in 0..<3 {
                let name = SegmentName(first: name.first + Int64(round * 10), last: name.last + Int64(round * 10))
                let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
                    for writer in 0..<16 {
                        group.addTask {
                            let bytes = Array(repeating: UInt8(writer), count: 64 * 1024 + writer)
                            do {
                                _ = try await hub.write(bytes, as: name, of: device)
                                return (writer, true)
                            } catch {
                                #expect(error.hubCondition == .nameTaken, "writer \(writer): \(error)")
                                return (writer, false)
                            }
                        }
                    }
                    return await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
                }
                let winners = outcomes.filter(\.1).map(\.0)
                #expect(winners.count == 1, "round \(round): \(winners.count) writers were told they wrote \(name)")
                guard let winner = winners.first else { continue }
                #expect(try await hub.read(name, of: device) == Array(repeating: UInt8(winner), count: 64 * 1024 + winner))
            }
            await hub.close()
        }
    }

    /// A write sent again after its connection closed (`HTTPExchange`) finds what it wrote the first
    /// time: its own, by its bytes, never another writer's. It was told the name was taken, and the
    /// sync failed saying another copy of the journal wrote it.
    @Test func aWriteSentAgainFindsItsOwnAndNoOneElses() async throws {
        try await withTemporaryDirectory { folder in
            let hub = try #require(try await HubFlavor.apache.newPlace(in: folder).make(key: SyncKey(), shared: false) as? WebDAVHub)
            #expect(try await hub.put([1, 2, 3], at: ["written"], exclusive: true))
            #expect(try await hub.put([1, 2, 3], at: ["written"], exclusive: true))
            #expect(try await hub.put([1, 2, 4], at: ["written"], exclusive: true) == false)
            #expect(try await hub.put([1, 2, 3, 4], at: ["written"], exclusive: true) == false)
            #expect(try await hub.get(["written"], limit: 10, what: "it") == [1, 2, 3])
            await hub.close()
        }
    }

    /// A server that answers MKCOL of a folder that is there with 201 cannot create exclusively: the
    /// hub is not made on it, and the message names what is missing.
    @Test func aServerThatCannotCreateExclusivelyIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let server = try CarelessDAVServer(folder: folder)
            defer { server.stop() }
            let place = try WebDAVPlace(url: "dav://127.0.0.1:\(server.port)/hub", loginFiles: [])
            #expect(try await place.hubExists() == false)
            let refused = await #expect(throws: DAVHubError.self) { _ = try await place.make(key: SyncKey(), shared: false) }
            guard case .noExclusiveCreate(_, let feature)? = refused else { Issue.record("\(String(describing: refused))"); return }
            #expect(feature.contains("MKCOL"))
            #expect(refused?.description.contains("cannot create a name exclusively") == true)
        }
    }

    /// A server that answers at once and then trickles its body holds a request no longer than its
    /// deadline (a glance's 5 s): the deadline covers the whole answer, not only its headers. The server
    /// says whether the client hung up before it had sent its ten minutes of body: asked of it, not of a
    /// clock, which a loaded machine can hold back for longer than any margin.
    @Test func aServerTricklingItsAnswerIsCutOffAtTheDeadline() async throws {
        try await withTemporaryDirectory { folder in
            let server = try CarelessDAVServer(folder: folder)
            defer { server.stop() }
            let place = try WebDAVPlace(url: "dav://127.0.0.1:\(server.port)/slow", patience: .glance, loginFiles: [])
            let failed = await #expect(throws: SyncError.self) { _ = try await place.hubExists() }
            #expect(failed?.hubCondition == .unreachable)
            // Said as the body's deadline, or as AsyncHTTPClient's when a loaded machine was slower than
            // 5 s to its headers.
            #expect(failed?.description.contains("within 5 s") == true, "\(String(describing: failed))")
            #expect(try server.nextReport().hasPrefix("hung up after "))
        }
    }

    /// A server that holds its answer back for 30 s (Nextcloud's brute-force protection, after a
    /// login it took for a guess) is waited for by a sync: a slow answer is no hang. Its 404 says the
    /// folder is not there, which only an answer waited for can say.
    @Test func anAnswerThrottledFor30SecondsIsWaitedFor() async throws {
        try await withTemporaryDirectory { folder in
            let server = try CarelessDAVServer(folder: folder)
            defer { server.stop() }
            let place = try WebDAVPlace(url: "dav://127.0.0.1:\(server.port)/throttled", patience: .syncing, loginFiles: [])
            #expect(try await place.hubExists() == false)
        }
    }

    @Test func listingsAreReadByNamespaceWhateverTheServersPrefixes() throws {
        let apache = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:multistatus xmlns:D="DAV:"><D:response xmlns:lp1="DAV:" xmlns:lp2="http://apache.org/dav/props/">
            <D:href>/hub/journal-hub-v1/</D:href><D:propstat><D:prop><lp1:resourcetype><D:collection/></lp1:resourcetype>
            <lp1:getetag>W/"1000-6614e58e562ce"</lp1:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response xmlns:lp1="DAV:"><D:href>/hub/journal-hub-v1/hub.json</D:href><D:propstat><D:prop><lp1:resourcetype/>
            <lp1:getcontentlength>42</lp1:getcontentlength><lp1:getlastmodified>Sat, 28 Nov 2026 04:09:47 GMT</lp1:getlastmodified>
            <lp1:getetag>"2a-6614e58e562ce"</lp1:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            </D:multistatus>
            """
        let entries = try Multistatus.entries(Array(apache.utf8))
        #expect(entries.count == 2)
        #expect(entries[0].isCollection && entries[0].etag == "\"1000-6614e58e562ce\"" && entries[0].weakETag)
        #expect(entries[1] == DAVEntry(
            components: ["hub", "journal-hub-v1", "hub.json"], isCollection: false, etag: "\"2a-6614e58e562ce\"", weakETag: false,
            lastModified: "Sat, 28 Nov 2026 04:09:47 GMT", length: 42))
        // sabre/dav (Nextcloud): `d:` as the prefix, a default namespace elsewhere, absolute hrefs with
        // lowercase escapes, and a 404 propstat for what it does not have.
        let sabre = """
            <?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><d:response>
            <d:href>https://cloud.example.org/remote.php/dav/files/alice/j%c3%bcrnal/a%20b</d:href>
            <d:propstat><d:prop><d:getetag>&quot;5f3a&quot;</d:getetag><d:resourcetype/></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
            <d:propstat><d:prop><d:getcontentlength/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
            </d:response><response xmlns="DAV:"><href>/x/</href><propstat><prop><resourcetype><collection/></resourcetype></prop>
            <status>HTTP/1.1 200 OK</status></propstat></response></d:multistatus>
            """
        let read = try Multistatus.entries(Array(sabre.utf8))
        #expect(read.map(\.components) == [["remote.php", "dav", "files", "alice", "jürnal", "a b"], ["x"]])
        #expect(read[0].etag == "\"5f3a\"" && read[0].length == nil && !read[0].isCollection)
        #expect(read[1].isCollection)
        // An element of another namespace named like DAV's is not DAV's.
        let foreign = """
            <D:multistatus xmlns:D="DAV:" xmlns:X="urn:x"><D:response><D:href>/a</D:href><D:propstat><D:prop>
            <X:getetag>"forged"</X:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>
            """
        #expect(try Multistatus.entries(Array(foreign.utf8)).first?.etag == nil)
    }

    @Test(arguments: [
        "<D:multistatus xmlns:D=\"DAV:\"><D:response>",
        "<!DOCTYPE x [<!ENTITY a \"aaaa\">]><D:multistatus xmlns:D=\"DAV:\"/>",
        "<D:multistatus xmlns:D=\"DAV:\"><D:response></D:propstat></D:multistatus>",
        "<html><body>Sign in</body></html>",
        "<D:multistatus xmlns:D=\"DAV:\"><D:href>&bogus;</D:href></D:multistatus>",
        "",
    ])
    func whatIsNotAListingIsRefused(_ text: String) {
        #expect(throws: Multistatus.Malformed.self) { _ = try Multistatus.entries(Array(text.utf8)) }
    }

    /// Namespaces piled up in scope (each element's scope a copy of its parent's) are refused past 64,
    /// so a crafted answer costs no more than its size; the same ones declared again on every response,
    /// as Apache does, cost nothing more.
    @Test func aListingPilingUpNamespacesIsRefused() throws {
        let nested = (0..<40).map { "<D:x xmlns:a\($0)=\"1\" xmlns:b\($0)=\"2\">" }.joined()
        let piled = "<D:multistatus xmlns:D=\"DAV:\">" + nested
        #expect(throws: Multistatus.Malformed(reason: "it has more than 64 namespaces in scope")) { _ = try Multistatus.entries(Array(piled.utf8)) }
        let repeated = "<D:multistatus xmlns:D=\"DAV:\">"
            + String(repeating: "<D:response xmlns:lp1=\"DAV:\" xmlns:lp2=\"urn:x\"><D:href>/a</D:href></D:response>", count: 10_000) + "</D:multistatus>"
        #expect(try Multistatus.entries(Array(repeated.utf8)).count == 10_000)
    }

    /// A listing nested a hundred thousand deep is refused at its 64th level, not read to the end.
    @Test func aListingNestedDeeperThanAnyServerWritesIsRefused() {
        let deep = "<D:multistatus xmlns:D=\"DAV:\">" + String(repeating: "<D:response>", count: 100_000)
        #expect(throws: Multistatus.Malformed(reason: "it nests deeper than 64 elements")) { _ = try Multistatus.entries(Array(deep.utf8)) }
    }

    @Test func netrcIsReadAsCurlReadsIt() {
        let file = Netrc(path: "n", text: """
            # a comment
            machine other.example.org login bob password one
            macdef init
            machine cloud.example.org login mallory password macro

            machine cloud.example.org login alice password "app password # not a comment \\"quoted\\""
            machine cloud.example.org login carol password three
            default login anonymous password guest
            """)
        #expect(file.credentials(host: "cloud.example.org", user: nil)! == ("alice", "app password # not a comment \"quoted\""))
        #expect(file.credentials(host: "CLOUD.example.org", user: "carol")! == ("carol", "three"))
        #expect(file.credentials(host: "cloud.example.org", user: "dave") == nil)
        #expect(file.credentials(host: "elsewhere.example.org", user: nil)! == ("anonymous", "guest"))
        // A quote inside a token is part of it, as in curl; Windows line ends end lines.
        let odd = Netrc(path: "n", text: "machine a login u password pa\"ss\r\n# note\r\nmachine cloud.example login alice password right\r\n")
        #expect(odd.credentials(host: "a", user: nil)! == ("u", "pa\"ss"))
        #expect(odd.credentials(host: "cloud.example", user: nil)! == ("alice", "right"))
        let written = Netrc(path: "n", text: Netrc.line(host: "h", login: "a b", password: "p\"w\\d\tx"))
        #expect(written.credentials(host: "h", user: nil)! == ("a b", "p\"w\\d\tx"))
    }

    @Test func aNetrcOthersCanReadIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/netrc"
            try "machine h login a password p\n".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o644)
            #expect(throws: UnprotectedFileError.self) { _ = try Netrc.read(path) }
            chmod(path, 0o600)
            #expect(try Netrc.read(path)?.credentials(host: "h", user: nil)?.password == "p")
        }
    }

    @Test func urlsAreReadAndRecordedWithoutSecrets() throws {
        let location = try DAVLocation.parse("DAVS://alice@Cloud.Example.org/remote.php/dav/files/alice/J%C3%BCrnal?sslrootcert=/etc/ca.pem")
        #expect(location.uri == "davs://alice@cloud.example.org/remote.php/dav/files/alice/J%C3%BCrnal?sslrootcert=/etc/ca.pem")
        #expect(location.url(["journal-hub-v1", "a b"], collection: false) == "https://cloud.example.org/remote.php/dav/files/alice/J%C3%BCrnal/journal-hub-v1/a%20b")
        #expect(try DAVLocation.parse(location.uri) == location)
        #expect(try DAVLocation.parse("dav://127.0.0.1:8080/x").server == "127.0.0.1:8080")
        #expect(try DAVLocation.parse("davs://[::1]:8443/").uri == "davs://[::1]:8443/")
        #expect(throws: DAVHubError.plainTextElsewhere(url: "dav://nas.local/x")) { _ = try DAVLocation.parse("dav://nas.local/x") }
        #expect(throws: DAVHubError.passwordInURL) { _ = try DAVLocation.parse("davs://alice:secret@h/x") }
        // A URL that cannot be read is shown without what stands before its "@".
        let unreadable = #expect(throws: DAVHubError.self) { _ = try DAVLocation.parse("davs://alice:s3cret@h/my journal") }
        #expect(unreadable?.description.contains("s3cret") == false, "\(String(describing: unreadable))")
        for bad in ["davs:///x", "davs://h/x?sslmode=require", "davs://h/a/../b", "davs://h/x#f", "https://h/x"] {
            #expect(throws: DAVHubError.self, "\(bad)") { _ = try DAVLocation.parse(bad) }
        }
    }

    /// What a daemon's look at the top finds, on each server: another device's segment or key epoch
    /// is a change to sync, this device's own segment activity, a card's refresh housekeeping that
    /// leaves a quiet hub quiet (it once kept every daemon looking every 5 s for good).
    @Test(arguments: [HubFlavor.apache, .nginx])
    func aLookTellsAChangeFromHousekeeping(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let hub = try #require(try await flavor.newPlace(in: folder).make(key: SyncKey(), shared: false) as? WebDAVHub)
            let own = DeviceID(rawValue: UUIDText.random()), other = DeviceID(rawValue: UUIDText.random())
            _ = try await hub.write([1, 2, 3], as: SegmentName(first: 1, last: 1), of: own)
            _ = try await hub.write([1, 2, 3], as: SegmentName(first: 1, last: 1), of: other)
            try await hub.writeCard([4], of: other)
            try await hub.writeCard([4], of: own)
            let top = DAVTopLook(hub: hub, ownDevice: own, clock: SystemClock())
            // The first look takes the hub's measure; what was written within the last second is then
            // found until it settles.
            #expect(try await top.look() == .nothing)
            _ = try await Self.findings(top)
            #expect(try await Self.findings(top) == [])
            try await hub.writeCard([5, 6], of: other)
            try await hub.writeCard([5, 6], of: own)
            #expect(try await Self.findings(top) == [.housekeeping])
            // A card of a new name: a device joined, whose inviter is to vouch for it.
            try await hub.writeCard([8], of: DeviceID(rawValue: UUIDText.random()))
            #expect(try await Self.findings(top).first == .others(device: nil))
            _ = try await hub.write([1, 2, 3], as: SegmentName(first: 2, last: 2), of: other)
            #expect(try await Self.findings(top) == [.others(device: other)])
            _ = try await hub.write([1, 2, 3], as: SegmentName(first: 2, last: 2), of: own)
            #expect(try await Self.findings(top) == [.own])
            try await hub.writeEpochRecord([7], as: KeyEpoch(number: 1, id: Array(repeating: 7, count: 16)))
            #expect(try await Self.findings(top) == [.others(device: nil)])
            await hub.close()
        }
    }

    /// The distinct findings of looks until one begun 3 s in finds nothing: what moved within the
    /// server's second is found again until it settles (2 s at most). A look's start counts, not its
    /// end: on a loaded machine one look can take longer than that, and a look begun early may have
    /// compared two listings taken before anything settled.
    private static func findings(_ top: DAVTopLook) async throws -> [PolledChange] {
        var found: [PolledChange] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let began = ContinuousClock.now
            let change = try await top.look()
            if change == .nothing, began > deadline - .seconds(27) { return found }
            if change != .nothing, !found.contains(change) { found.append(change) }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the looks kept finding changes for 30 s: \(found)")
        return found
    }

    /// A server that limits its clients says for how long (429 or 503 with `Retry-After`): the failure
    /// carries it, so the daemon does not ask again sooner, whatever its backoff says, and no request
    /// of this process goes to that server meanwhile (a polled hub's looks included).
    @Test(arguments: [("busy", Duration.seconds(90)), ("down", RetryAfter.longest)])
    func aServerThatAsksToWaitIsWaitedFor(_ path: String, _ wait: Duration) async throws {
        try await withTemporaryDirectory { folder in
            let server = try CarelessDAVServer(folder: folder)
            defer { server.stop() }
            let place = try WebDAVPlace(url: "dav://127.0.0.1:\(server.port)/\(path)", loginFiles: [])
            let refused = await #expect(throws: SyncError.self) { _ = try await place.hubExists() }
            #expect(refused?.hubCondition == .unreachable, "\(String(describing: refused))")
            #expect(refused?.hubRetryAfter == wait, "\(String(describing: refused))")
            #expect(refused?.description.contains("asks to be left alone for \(wait.spoken)") == true, "\(String(describing: refused))")
            // The server's folder that answers: not asked while the wait lasts.
            let other = try WebDAVPlace(url: "dav://127.0.0.1:\(server.port)/hub", loginFiles: [])
            let waiting = await #expect(throws: SyncError.self) { _ = try await other.hubExists() }
            #expect(waiting?.description.contains("asked to be left alone for") == true, "\(String(describing: waiting))")
            #expect((waiting?.hubRetryAfter ?? .zero) > wait - .seconds(60), "\(String(describing: waiting))")
        }
    }

    @Test func retryAfterIsReadAsSecondsOrADate() {
        #expect(RetryAfter.wait("120", serverDate: nil, now: 0) == .seconds(120))
        #expect(RetryAfter.wait(" 5 ", serverDate: nil, now: 0) == .seconds(5))
        #expect(RetryAfter.wait("99999999999999999999", serverDate: nil, now: 0) == RetryAfter.longest)
        #expect(RetryAfter.wait("Sun, 06 Nov 1994 08:50:37 GMT", serverDate: "Sun, 06 Nov 1994 08:49:37 GMT", now: 0) == .seconds(60))
        // Without the server's Date, this machine's clock; a date past is no wait.
        #expect(RetryAfter.wait("Sun, 06 Nov 1994 08:50:37 GMT", serverDate: nil, now: 784_111_777) == .seconds(60))
        #expect(RetryAfter.wait("Sun, 06 Nov 1994 08:50:37 GMT", serverDate: nil, now: 784_200_000) == .zero)
        for nothing in [nil, "", "soon", "-5", "1.5"] { #expect(RetryAfter.wait(nothing, serverDate: nil, now: 0) == nil, "\(String(describing: nothing))") }
    }

    @Test func httpDatesAreRead() {
        #expect(HTTPDate.seconds("Sat, 28 Nov 2026 04:09:47 GMT") == 1_795_838_987)
        #expect(HTTPDate.seconds("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.seconds("Sun, 31 Feb 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.seconds("yesterday") == nil)
        // A crafted date is refused before any arithmetic could overflow.
        #expect(HTTPDate.seconds("Sun, 06 Nov 1994 9999999999999999:00:00 GMT") == nil)
        #expect(HTTPDate.seconds("Sun, 06 Nov 9223372036854775807 08:49:37 GMT") == nil)
    }
}

/// A WebDAV server that lists the folder `/hub/` and answers every MKCOL with 201, even of a folder
/// it made a moment ago: what a server without exclusive create looks like to a client; and that
/// answers a PROPFIND of `/slow/` at once and then sends its body a byte a second for ten minutes,
/// reporting (`nextReport`) whether the client hung up first; one of `/throttled/` 30 s late, as a
/// server that throttles logins does. It ends with the test process.
struct CarelessDAVServer {
    let process: ChildProcess
    let port: Int
    private let output: FileHandle

    init(folder: String) throws {
        let script = folder + "/careless.py"
        try """
            import http.server, os, sys, threading, time
            parent = os.getppid()
            def watch():
                while os.getppid() == parent: time.sleep(0.5)
                os._exit(0)
            threading.Thread(target=watch, daemon=True).start()
            LISTING = b'<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>/hub/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>'
            class Careless(http.server.BaseHTTPRequestHandler):
                def log_message(self, *args): pass
                def answer(self, status, body=b''):
                    self.rfile.read(int(self.headers.get('Content-Length') or 0))
                    # Its own headers only (send_response adds a Date of this machine's clock).
                    self.send_response_only(status)
                    # A server that limits its clients: /busy/ by seconds, /down/ by a date an hour past
                    # its own clock (this machine's may be anything).
                    if self.path.startswith('/busy'): self.send_header('Retry-After', '90')
                    if self.path.startswith('/down'):
                        self.send_header('Date', 'Sun, 06 Nov 1994 08:49:37 GMT')
                        self.send_header('Retry-After', 'Sun, 06 Nov 1994 09:49:37 GMT')
                    self.send_header('Content-Length', str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def handle_one_request(self):
                    try: return super().handle_one_request()
                    except OSError: pass
                def parse_request(self):
                    if not super().parse_request(): return False
                    if self.path.startswith('/busy'): self.answer(429); return False
                    if self.path.startswith('/down'): self.answer(503); return False
                    return True
                def do_PROPFIND(self):
                    if self.path.startswith('/throttled'):
                        # Nextcloud's brute-force protection holds a client's answers back, up to 30 s.
                        time.sleep(30)
                        self.answer(404)
                        return
                    if self.path.rstrip('/') == '/slow':
                        sent = 0
                        try:
                            self.rfile.read(int(self.headers.get('Content-Length') or 0))
                            self.send_response(207)
                            self.send_header('Content-Length', '600')
                            self.end_headers()
                            for sent in range(600):
                                self.wfile.write(b' '); self.wfile.flush(); time.sleep(1)
                            print('sent it all', flush=True)
                        except OSError:
                            print('hung up after', sent, 'bytes', flush=True)
                        return
                    self.answer(207, LISTING) if self.path.rstrip('/') == '/hub' else self.answer(404)
                def do_MKCOL(self): self.answer(201)
                def do_DELETE(self): self.answer(204)
                def do_PUT(self): self.answer(201)
                def do_GET(self): self.answer(404)
            server = http.server.HTTPServer(('127.0.0.1', 0), Careless)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let output = try ClosedOnExecPipe()
        process = try ChildProcess("/usr/bin/python3", [script], standardOutput: output.writing)
        try output.writing.close()
        self.output = output.reading
        guard let port = Int(try Self.line(from: self.output)) else { throw FixtureError("the careless server said no port") }
        self.port = port
    }

    /// What the server said of its last trickle: "hung up after N bytes" or "sent it all", waited for
    /// (the limit, past the trickle's ten minutes, only guards against a hang: a client that never
    /// reached the server).
    func nextReport() throws -> String { try Self.line(from: output, limit: .seconds(900)) }

    /// The next line the server prints.
    static func line(from output: FileHandle, limit: Duration = .seconds(600)) throws -> String {
        try nextLine(from: output, limit: limit, of: "the careless server")
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
